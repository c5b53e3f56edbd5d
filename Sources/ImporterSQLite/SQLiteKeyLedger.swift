import CSQLite
import ImporterCore

/// The run's key ledger in a private temporary SQLite database, so memory stays flat however
/// many keys a run holds (pages beyond the cache go to a temporary file, deleted on close).
///
/// Keys are stored as 64-bit SipHash fingerprints (seeded per process) in an integer-keyed
/// table: small rows, fast searches. Two different keys share a fingerprint with probability
/// about n²/2⁶⁵ (10⁻⁶ for five million keys); such a pair would be reported as a duplicate,
/// never dropped silently.
public final class SQLiteKeyLedger: KeyLedger {
    private let database: Database
    private let insert: Statement
    private let lookup: Statement
    private var entityIDs: [String: Int] = [:]

    public init() throws {
        database = try Database(path: "")
        try database.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -32768;
            CREATE TABLE keys (fingerprint INTEGER PRIMARY KEY, input INTEGER NOT NULL, line INTEGER NOT NULL);
            BEGIN;
            """)
        insert = try database.prepare("INSERT INTO keys VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
        lookup = try database.prepare("SELECT input, line FROM keys WHERE fingerprint = ?")
    }

    public func record(_ key: Value, entity: String, at location: RecordLocation) throws -> RecordLocation? {
        let fingerprint = self.fingerprint(key, entity)
        insert.bind(1, int64: fingerprint)
        insert.bind(2, int64: Int64(location.inputIndex))
        insert.bind(3, int64: Int64(location.line))
        defer { insert.reset() }
        try insert.step()
        guard database.changes == 0 else { return nil }
        return try find(fingerprint)
    }

    public func contains(_ key: Value, entity: String) throws -> Bool {
        try find(fingerprint(key, entity)) != nil
    }

    private func find(_ fingerprint: Int64) throws -> RecordLocation? {
        lookup.bind(1, int64: fingerprint)
        defer { lookup.reset() }
        guard try lookup.step() else { return nil }
        return RecordLocation(inputIndex: Int(lookup.int64(0)), line: Int(lookup.int64(1)))
    }

    private func fingerprint(_ key: Value, _ entity: String) -> Int64 {
        let id: Int
        if let known = entityIDs[entity] {
            id = known
        } else {
            id = entityIDs.count
            entityIDs[entity] = id
        }
        var hasher = Hasher()
        hasher.combine(id)
        hasher.combine(key)
        return Int64(hasher.finalize())
    }
}
