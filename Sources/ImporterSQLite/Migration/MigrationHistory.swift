import Foundation
import ImporterCore

/// `_importer_migrations`: every migration step and accepted model change, kept in the store.
extension StoreConnection {
    func prepareMigrationHistory() throws {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS _importer_migrations (
                id INTEGER PRIMARY KEY, from_version INTEGER NOT NULL, to_version INTEGER NOT NULL,
                checksum TEXT NOT NULL, started TEXT NOT NULL, finished TEXT NOT NULL, items INTEGER NOT NULL,
                success INTEGER NOT NULL, note TEXT)
            """)
    }

    /// Appends one row (inside the caller's transaction, if any).
    func recordMigration(from: Int, to: Int, checksum: String, started: Date, items: Int, success: Bool, note: String?)
        throws
    {
        try database.execute(
            """
            INSERT INTO _importer_migrations (from_version, to_version, checksum, started, finished, items, success, note)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(Int64(from)), .integer(Int64(to)), .string(checksum), .string(ISO8601.format(started)),
                .string(ISO8601.format(Date())), .integer(Int64(items)), .integer(success ? 1 : 0),
                note.map(Value.string) ?? .null,
            ])
    }

    /// Records a migration that failed and was rolled back.
    func recordFailedMigration(_ plan: MigrationPlan, started: Date, failedItems: Int, note: String) throws {
        try prepareMigrationHistory()
        try recordMigration(
            from: plan.from.version, to: plan.to.version, checksum: plan.to.checksum, started: started,
            items: failedItems, success: false, note: note)
    }

    /// Accepts an edited model file for the version the store holds: the store records the
    /// new checksum, and the history says who accepted what.
    func acceptModelChange(_ model: Model, previousChecksum: String) throws {
        try prepareMigrationHistory()
        try database.inTransaction(.immediate) {
            try setMeta(["checksum": model.checksum])
            try recordMigration(
                from: model.version, to: model.version, checksum: model.checksum, started: Date(), items: 0,
                success: true,
                note: "accepted a changed model file \(model.file): checksum \(previousChecksum) → \(model.checksum)")
            return .commit
        }
    }

    /// The history, oldest first.
    func migrationHistory() throws -> [MigrationRecord] {
        guard try hasTable("_importer_migrations") else { return [] }
        var records: [MigrationRecord] = []
        try database.cached(
            """
            SELECT from_version, to_version, checksum, started, finished, items, success, note
            FROM _importer_migrations ORDER BY id
            """
        ).query { row in
            records.append(
                MigrationRecord(
                    from: Int(row.int64(0)), to: Int(row.int64(1)), checksum: row.text(2) ?? "",
                    started: Self.date(row.text(3)),
                    finished: row.text(4).map { Self.date($0) }, items: Int(row.int64(5)), applied: row.int64(6) == 1,
                    note: row.text(7).flatMap { $0.isEmpty ? nil : $0 }))
        }
        return records
    }

    /// A time the store recorded as ISO 8601 text; the epoch for text that is not one.
    static func date(_ text: String?) -> Date {
        text.flatMap(ISO8601.date) ?? Date(timeIntervalSince1970: 0)
    }
}
