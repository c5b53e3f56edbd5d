import Foundation
import ImporterCore

/// `_importer_migrations`: every migration step and accepted model change, kept in the store.
extension SQLiteStore {
    func prepareMigrationHistory() throws {
        try database.execute("""
            CREATE TABLE IF NOT EXISTS _importer_migrations (
                id INTEGER PRIMARY KEY, from_version INTEGER NOT NULL, to_version INTEGER NOT NULL,
                checksum TEXT NOT NULL, started TEXT NOT NULL, finished TEXT NOT NULL, items INTEGER NOT NULL,
                success INTEGER NOT NULL, note TEXT)
            """)
    }

    /// Appends one row (inside the caller's transaction, if any).
    func recordMigration(from: Int, to: Int, checksum: String, started: Date, items: Int, success: Bool, note: String?) throws {
        let statement = try database.prepare("""
            INSERT INTO _importer_migrations (from_version, to_version, checksum, started, finished, items, success, note)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        statement.bind(1, int64: Int64(from))
        statement.bind(2, int64: Int64(to))
        statement.bind(3, text: checksum)
        statement.bind(4, text: ISO8601.format(started))
        statement.bind(5, text: ISO8601.format(Date()))
        statement.bind(6, int64: Int64(items))
        statement.bind(7, int64: success ? 1 : 0)
        if let note { statement.bind(8, text: note) } else { statement.bindNull(8) }
        try statement.step()
    }

    /// Records a migration that failed and was rolled back.
    public func recordFailedMigration(_ plan: MigrationPlan, started: Date, failedItems: Int, note: String) throws {
        try prepareMigrationHistory()
        try recordMigration(from: plan.from.version, to: plan.to.version, checksum: plan.to.checksum, started: started,
                            items: failedItems, success: false, note: note)
    }

    /// Accepts an edited model file for the version the store holds: the store records the
    /// new checksum, and the history says who accepted what.
    public func acceptModelChange(_ model: Model, previousChecksum: String) throws {
        try prepareMigrationHistory()
        try database.execute("BEGIN IMMEDIATE")
        do {
            try setMeta(["checksum": model.checksum])
            try recordMigration(from: model.version, to: model.version, checksum: model.checksum, started: Date(), items: 0,
                                success: true, note: "accepted a changed model file \(model.file): checksum \(previousChecksum) → \(model.checksum)")
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// The history, oldest first.
    public func migrationHistory() throws -> [[String: String]] {
        let exists = try database.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_importer_migrations'")
        guard !exists.isEmpty else { return [] }
        return try database.rows("""
            SELECT from_version, to_version, checksum, started, finished, items, success, coalesce(note, '')
            FROM _importer_migrations ORDER BY id
            """, names: ["from", "to", "checksum", "started", "finished", "items", "success", "note"])
    }
}
