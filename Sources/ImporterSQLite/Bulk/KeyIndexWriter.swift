/// Writes the key index of a table a bulk load adopts from the keys kept while its rows were
/// staged (`StagedKeys`), in key order: each entry is appended to the B-tree, where SQLite's
/// `CREATE UNIQUE INDEX` reads the staged rows back and sorts them (docs/writes.md#bulk-loads).
///
/// The index is written as a table `(key, row) WITHOUT ROWID` keyed by the key: SQLite keeps
/// such a table in a B-tree laid out exactly as a unique index on the key of a rowid table
/// (records of the key, then the rowid, in key order). `BulkLoad.adopt` then makes it the
/// adopted table's primary-key index, as it does the index SQLite builds.
enum KeyIndexWriter {
    /// Rows per INSERT: within one statement SQLite appends each entry in key order where the
    /// last one left the B-tree's cursor, without a search from the root.
    private static let rowsPerInsert = 1024

    /// Writes `keys` as the table `name`; false when two keys are equal, the table then dropped
    /// (the caller's `CREATE UNIQUE INDEX` says which).
    static func write(_ keys: StagedKeys, as name: String, in database: Database) throws -> Bool {
        let table = quoted(name)
        try database.execute(
            "CREATE TABLE \(table) (\"key\" TEXT NOT NULL PRIMARY KEY, \"row\" INTEGER NOT NULL) WITHOUT ROWID")
        let insert = "INSERT INTO \(table) VALUES "
        let batch = try database.prepare(
            insert + Array(repeating: "(?, ?)", count: rowsPerInsert).joined(separator: ", "))
        let single = try database.prepare(insert + "(?, ?)")
        let unique = try keys.inKeyOrder { entries, long in
            var start = 0
            while start < entries.count {
                let count = entries.count - start >= rowsPerInsert ? rowsPerInsert : 1
                let statement = count == rowsPerInsert ? batch : single
                for parameter in 0..<count {
                    let entry = entries.baseAddress! + start + parameter
                    try statement.bind(Int32(2 * parameter + 1), textInPlace: StagedKeys.key(at: entry, long))
                    try statement.bind(Int32(2 * parameter + 2), int64: Int64(entry.pointee.rowid))
                }
                defer { statement.reset() }
                try statement.step()
                start += count
            }
        }
        if !unique { try database.execute("DROP TABLE \(table)") }
        return unique
    }
}
