import CSQLite
import ImporterCore

/// The run's key ledger in a private temporary SQLite database: memory stays flat however many
/// keys a run holds (pages beyond the cache go to a temporary file, deleted on close).
public final class SQLiteKeyLedger: KeyLedger {
    private let database: Database
    private let insert: Statement
    private let lookup: Statement
    private var entityIDs: [String: Int64] = [:]

    public init() throws {
        database = try Database(path: "")
        try database.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384;
            CREATE TABLE keys (entity INTEGER NOT NULL, key NOT NULL, input INTEGER NOT NULL, line INTEGER NOT NULL,
                               PRIMARY KEY (entity, key)) WITHOUT ROWID;
            BEGIN;
            """)
        insert = try database.prepare("INSERT INTO keys VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
        lookup = try database.prepare("SELECT input, line FROM keys WHERE entity = ? AND key = ?")
    }

    public func record(_ key: Value, entity: String, at location: RecordLocation) throws -> RecordLocation? {
        let id = entityID(entity)
        insert.bind(1, int64: id)
        ValueColumns.bind(key, to: insert, at: 2)
        insert.bind(3, int64: Int64(location.inputIndex))
        insert.bind(4, int64: Int64(location.line))
        defer { insert.reset() }
        try insert.step()
        guard database.changes == 0 else { return nil }
        return try find(key, id)
    }

    public func contains(_ key: Value, entity: String) throws -> Bool {
        try find(key, entityID(entity)) != nil
    }

    private func find(_ key: Value, _ id: Int64) throws -> RecordLocation? {
        lookup.bind(1, int64: id)
        ValueColumns.bind(key, to: lookup, at: 2)
        defer { lookup.reset() }
        guard try lookup.step() else { return nil }
        return RecordLocation(inputIndex: Int(lookup.int64(0)), line: Int(lookup.int64(1)))
    }

    private func entityID(_ name: String) -> Int64 {
        if let id = entityIDs[name] { return id }
        let id = Int64(entityIDs.count)
        entityIDs[name] = id
        return id
    }
}
