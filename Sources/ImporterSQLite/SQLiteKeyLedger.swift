import CSQLite
import ImporterCore

/// The run's key ledger. Keys are kept as 64-bit SipHash fingerprints (seeded per process):
/// the first million or so in memory, the rest spilled to a private temporary SQLite database,
/// so memory stays bounded however many keys a run holds.
///
/// Two different keys share a fingerprint with probability about n²/2⁶⁵ (10⁻⁶ for five million
/// keys); such a pair would be reported as a duplicate, never dropped silently.
public final class SQLiteKeyLedger: KeyLedger {
    /// Fingerprint → input index (high 24 bits) and line (low 40 bits).
    private var recent: [UInt64: UInt64] = [:]
    private let memoryLimit: Int
    private var spilled: SpillDatabase?
    private var entityIDs: [String: Int] = [:]

    /// `memoryLimit`: fingerprints held in memory (16 bytes each, plus the table's slack)
    /// before they move to disk.
    public init(memoryLimit: Int = 1 << 20) {
        self.memoryLimit = memoryLimit
        recent.reserveCapacity(memoryLimit)
    }

    public func record(_ key: Value, entity: String, at location: RecordLocation) throws -> RecordLocation? {
        let fingerprint = self.fingerprint(key, entity)
        if let first = try find(fingerprint) { return first }
        recent[fingerprint] = UInt64(location.inputIndex) << 40 | UInt64(location.line)
        if recent.count >= memoryLimit { try spill() }
        return nil
    }

    public func contains(_ key: Value, entity: String) throws -> Bool {
        try find(fingerprint(key, entity)) != nil
    }

    private func find(_ fingerprint: UInt64) throws -> RecordLocation? {
        if let packed = try recent[fingerprint] ?? spilled?.find(fingerprint) {
            return RecordLocation(inputIndex: Int(packed >> 40), line: Int(packed & (1 << 40 - 1)))
        }
        return nil
    }

    /// Moves the in-memory fingerprints to disk, in order (sequential B-tree inserts).
    private func spill() throws {
        if spilled == nil { spilled = try SpillDatabase() }
        try spilled!.insert(recent.sorted { $0.key < $1.key })
        recent.removeAll(keepingCapacity: true)
    }

    private func fingerprint(_ key: Value, _ entity: String) -> UInt64 {
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
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }
}

/// Fingerprints that no longer fit in memory, in a temporary database deleted on close.
private final class SpillDatabase {
    private let database: Database
    private let insert: Statement
    private let lookup: Statement

    init() throws {
        database = try Database(path: "")
        try database.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384;
            CREATE TABLE keys (fingerprint INTEGER PRIMARY KEY, location INTEGER NOT NULL);
            """)
        insert = try database.prepare("INSERT INTO keys VALUES (?, ?)")
        lookup = try database.prepare("SELECT location FROM keys WHERE fingerprint = ?")
    }

    func insert(_ entries: [(key: UInt64, value: UInt64)]) throws {
        try database.execute("BEGIN")
        for (fingerprint, location) in entries {
            insert.bind(1, int64: Int64(bitPattern: fingerprint))
            insert.bind(2, int64: Int64(bitPattern: location))
            defer { insert.reset() }
            try insert.step()
        }
        try database.execute("COMMIT")
    }

    func find(_ fingerprint: UInt64) throws -> UInt64? {
        lookup.bind(1, int64: Int64(bitPattern: fingerprint))
        defer { lookup.reset() }
        guard try lookup.step() else { return nil }
        return UInt64(bitPattern: lookup.int64(0))
    }
}
