import CSQLite
import Foundation
import ImporterCore

/// The rows of a bulk load before they reach their tables: a table per entity without an index,
/// so that staging a row is an append whatever its key. When the run finishes, the store builds
/// its tables from these (`BulkLoad`).
///
/// They are staged in one of two places:
/// - **In the store** (`inStore`), as `_importer_staged_<table>`, for tables the store can
///   adopt: their rows commit with the store's checkpoint, and the staged table, once indexed by
///   its key, becomes the entity's table without a copy (`BulkLoad.adopt`).
/// - **In a file beside the store** (`<store>.bulk`), for the others (a key that is the rowid,
///   or a table an older version created), which are copied into the store. It is a scratch
///   file: a rollback journal without syncs, so a killed process leaves it as it was at its last
///   commit. It commits just before the store does, and the store records with its checkpoint
///   how many rows it holds: a crash between the two leaves rows the store does not count,
///   which `stage(_:keeping:)` drops when the run resumes.
final class StagedRows {
    /// The staging file, or the store's path for rows staged in the store.
    let path: String
    /// Whether the rows are staged in the store's own file, on its connection.
    let inStore: Bool
    private let database: Database
    private var inserts: [String: Statement] = [:]
    /// Per entity, an INSERT of `rowsPerInsert` rows: one statement run for many rows.
    private var batchInserts: [String: Statement] = [:]
    private static let rowsPerInsert = 64
    /// The text of the rows being inserted, which SQLite reads in place.
    private let boundText = BoundText()
    /// The page cache while SQLite sorts staged rows, which also bounds the sorter's memory per
    /// thread: 2 MiB. Sorted runs that fit in the CPU's caches sort faster than fewer, larger
    /// runs, and merging them costs less than it saves: the key index of 1M staged rows took
    /// 0.55 s to build with 2 MiB against 0.95 s with 16 MiB, that of 10M rows 7.4 s against 9.5 s.
    static let sortCacheSize = -2048
    /// Rows staged per entity, committed or not; rowids run from 1 to this.
    private(set) var rows: [String: Int64] = [:]
    /// `rows` at the last commit.
    private(set) var committedRows: [String: Int64] = [:]
    /// The entities whose staged rows are all in the order of their key as the store's index
    /// orders it (`KeyOrder`; a dump sorted by key, as many are): their tables are built
    /// without a sort (`BulkLoad`). Not known of rows an interrupted run staged, nor followed in
    /// the store, whose staged tables are indexed by a sort whatever their order.
    private(set) var inKeyOrder: Set<String> = []
    /// The last key staged of each entity in `inKeyOrder`.
    private var lastKeys: [String: Value] = [:]
    /// Per entity with a text key staged in the store from its first row, the keys of its
    /// staged rows (`StagedKeys`), while they fit in their memory.
    private var keys: [String: StagedKeys] = [:]

    /// The staging file of the store at `storePath`.
    static func path(ofStore storePath: String) -> String { storePath + ".bulk" }

    /// Opens the staging file of `storePath`; with `fresh`, a new one in place of any left behind.
    init(storePath: String, fresh: Bool) throws {
        path = Self.path(ofStore: storePath)
        inStore = false
        if fresh { Self.remove(path) }
        database = try Database(path: path)
        // 8 KiB pages as the store; appends need few pages in the cache (a sort raises it).
        try database.execute(
            "PRAGMA page_size = 8192; PRAGMA journal_mode = DELETE; PRAGMA synchronous = OFF; PRAGMA cache_size = -2048;"
        )
    }

    /// Stages rows in the store itself, on its connection and in its transactions.
    init(inStore database: Database, path: String) {
        self.path = path
        self.database = database
        inStore = true
    }

    /// The table staging the rows of `entity`, unquoted.
    func table(of entity: Entity) -> String {
        inStore ? Self.stagedTable(of: entity) : entity.table
    }

    /// The name of the table staging the rows of `entity` in the store.
    static func stagedTable(of entity: Entity) -> String { "_importer_staged_" + entity.table }

    /// Readies the table of `entity`: the rows an interrupted run committed, `keeping` of them
    /// (the rest were staged after the store's last commit), or none.
    func stage(_ entity: Entity, keeping committed: Int64?) throws {
        let table = quoted(table(of: entity))
        if let committed {
            let staged = try database.integer("SELECT max(rowid) FROM \(table)")
            guard staged >= committed else {
                throw StoreError(
                    .unusableCheckpoint,
                    "\(path): the interrupted bulk load of \(entity.name) staged \(committed) rows, but \(inStore ? "the store" : "the file") holds \(staged); run without --resume to start over",
                    entity: entity.name, operation: "resume")
            }
            try database.execute("DELETE FROM \(table) WHERE rowid > ?", [.integer(committed)])
        } else {
            // The store's columns, without its key: the same columns let `BulkLoad` copy the table as it is.
            let columns = StoreConnection.columnDefinitions(of: entity)
            try database.execute(
                "DROP TABLE IF EXISTS \(table); CREATE TABLE \(table) (\(columns.joined(separator: ", ")))")
        }
        rows[entity.name] = committed ?? 0
        committedRows[entity.name] = committed ?? 0
        if (committed ?? 0) == 0, !inStore { inKeyOrder.insert(entity.name) } else { inKeyOrder.remove(entity.name) }
        lastKeys[entity.name] = nil
        let textKey = entity.rangeKey == nil && entity.attributes[entity.hashKeyIndex].type == .string
        keys[entity.name] = inStore && (committed ?? 0) == 0 && textKey ? StagedKeys() : nil
        let list = entity.attributes.map { quoted($0.name) }
        let row = "(" + list.map { _ in "?" }.joined(separator: ", ") + ")"
        let insert = "INSERT INTO \(table) (\(list.joined(separator: ", "))) VALUES "
        inserts[entity.name] = try database.prepare(insert + row)
        batchInserts[entity.name] = try database.prepare(
            insert + Array(repeating: row, count: Self.rowsPerInsert).joined(separator: ", "))
    }

    /// Stages rows of `entity`: each row's `values` with its `version` in place of the record's.
    /// (In the store, inside the transaction its writes have begun.)
    func append(_ staged: [(values: [Value], version: Int64)], of entity: Entity) throws {
        guard !staged.isEmpty else { return }
        if database.isAutocommit { try database.begin(.immediate) }
        var inOrder = inKeyOrder.contains(entity.name), lastKey = lastKeys[entity.name]
        // Kept while every key is: else let go of, and the index is built by a sort.
        let keys = self.keys[entity.name], keyIndex = entity.hashKeyIndex
        var keysKept = keys != nil
        defer { if !keysKept { self.keys[entity.name] = nil } }
        let columns = entity.attributes.count, versionIndex = entity.versionIndex
        var start = staged.startIndex
        while start < staged.endIndex {
            // `rowsPerInsert` rows a statement while there are as many, then one at a time.
            let batch = staged.endIndex - start >= Self.rowsPerInsert
            let count = batch ? Self.rowsPerInsert : 1
            let insert = batch ? batchInserts[entity.name]! : inserts[entity.name]!
            try insert.withArguments(staged[start].values) {
                // Every parameter is bound again below: the text of the last rows is not read.
                boundText.removeAll()
                for row in 0..<count {
                    let position = start + row, base = row * columns + 1
                    if inOrder {
                        (inOrder, lastKey) = Self.follow(lastKey, by: entity.key(of: staged[position].values))
                    }
                    // Read in place: a row or a value copied out of its array would be retained and released.
                    try staged[position].values.withUnsafeBufferPointer { values in
                        for index in values.indices where index != versionIndex {
                            let bound = try insert.bind(values[index], at: Int32(base + index), textIn: boundText)
                            // The key as bound: its text is not read again.
                            if index == keyIndex, keysKept { keysKept = bound.map(keys!.append) ?? false }
                        }
                    }
                    try insert.bind(Int32(base + versionIndex), int64: staged[position].version)
                }
                defer { insert.reset() }
                try insert.step()
            }
            start += count
        }
        lastKeys[entity.name] = lastKey
        if !inOrder { inKeyOrder.remove(entity.name) }
        rows[entity.name, default: 0] += Int64(staged.count)
    }

    /// Whether `key`, staged after `last`, keeps the rows in key order; and the last key then.
    private static func follow(_ last: Value?, by key: Value) -> (inOrder: Bool, last: Value?) {
        guard let last else { return (true, key) }
        return KeyOrder.precedes(last, key) ? (true, key) : (false, nil)
    }

    /// Whether rows were staged since the last commit.
    var hasUncommitted: Bool { rows != committedRows }

    /// Commits the staged file; rows staged in the store are committed by the store, which then
    /// calls this.
    func commit() throws {
        if !inStore, !database.isAutocommit { try database.commit() }
        committedRows = rows
        for kept in keys.values { kept.commit() }
    }

    /// Drops what was staged since the last commit (the store rolls back its own).
    func rollBack() {
        if !inStore { database.rollBackQuietly() }
        (inKeyOrder, lastKeys) = ([], [:])  // the last key kept may be one of the rows dropped
        rows = committedRows
        for kept in keys.values { kept.rollBack() }
    }

    /// The keys of every row staged of `entity`, if they were all kept (`StagedKeys`); let go
    /// of once taken.
    func takeKeys(of entity: Entity) -> StagedKeys? {
        defer { keys[entity.name] = nil }
        guard let kept = keys[entity.name], Int64(kept.count) == rows[entity.name] else { return nil }
        return kept
    }

    /// Calls `body` with every staged row of `entity`, in the order of its key.
    func scanInKeyOrder(_ entity: Entity, _ body: (Statement) throws -> Void) throws {
        let columns = entity.attributes.map { quoted($0.name) }.joined(separator: ", ")
        let key = entity.keyAttributes.map(quoted).joined(separator: ", ")
        try database.execute("PRAGMA cache_size = \(Self.sortCacheSize)")
        try database.prepare("SELECT \(columns) FROM \(quoted(table(of: entity))) ORDER BY \(key)").query(row: body)
    }

    /// Closes the file and deletes it: its rows are in the store. (Tables staged in the store
    /// are its tables now, or dropped when a run starts over.)
    func close() {
        inserts = [:]
        batchInserts = [:]
        guard !inStore else { return }
        database.clearCache()
        Self.remove(path)
    }

    /// Deletes a staging file and its journal, if they exist.
    static func remove(_ path: String) {
        for file in [path, path + "-journal"] { try? FileManager.default.removeItem(atPath: file) }
    }
}
