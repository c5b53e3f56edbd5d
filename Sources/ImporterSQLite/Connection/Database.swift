import CSQLite
import Foundation
import ImporterCore

/// A thin owner of one sqlite3 connection and of the statements prepared on it. Not
/// thread-safe: one thread uses it at a time (`SQLiteStore` keeps each connection under a lock).
///
/// Every sqlite3 result is checked; a failure throws `SQLiteError` with the SQL, the bound
/// arguments and the result code.
final class Database {
    let handle: OpaquePointer
    let path: String
    /// Statements by SQL text, prepared on first use (`cached`) and kept until `clearCache`.
    private var cache: [String: Statement] = [:]

    /// Opens (creating if needed) the database at `path`; "" opens a private temporary database.
    init(path: String, readOnly: Bool = false) throws {
        self.path = path
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw SQLiteError(code: code, message: "cannot open \(path): \(message)", sql: nil)
        }
        self.handle = handle
        do {
            try check(sqlite3_extended_result_codes(handle, 1), sql: nil)
            try check(sqlite3_busy_timeout(handle, 10_000), sql: nil)
        } catch {
            sqlite3_close(handle)
            throw error
        }
    }

    /// `sqlite3_close_v2`: a statement still alive keeps the connection until it is finalized.
    /// (Its result is SQLITE_OK but for misuse, such as a handle closed twice.)
    deinit {
        cache = [:]
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements without arguments (schema scripts, pragmas).
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql: sql)
    }

    /// Runs one statement with `arguments`, prepared once per connection.
    func execute(_ sql: String, _ arguments: [Value]) throws {
        try cached(sql).execute(arguments)
    }

    /// A new statement, owned by the caller.
    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql: sql) }
        return Statement(statement, sql: sql)
    }

    /// The statement for `sql`, prepared on the first call and reused afterwards. Callers reset
    /// it when done (`Statement.execute` and `query` do), and do not use it reentrantly.
    func cached(_ sql: String) throws -> Statement {
        if let statement = cache[sql] { return statement }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// Finalizes the cached statements (before a schema change that drops their tables, or on close).
    func clearCache() {
        cache = [:]
    }

    /// True outside a transaction (SQLite's autocommit mode).
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Rows changed by this connection since it was opened.
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// Changes when another connection commits (SQLite's `PRAGMA data_version`).
    func dataVersion() throws -> Int64 {
        try integer("PRAGMA data_version")
    }

    /// The rowid of the last successful INSERT; an upsert that updates leaves it alone.
    var lastInsertRowid: Int64 {
        get { sqlite3_last_insert_rowid(handle) }
        set { sqlite3_set_last_insert_rowid(handle, newValue) }
    }

    /// The error SQLite reports for `code` now (its message is the connection's last one).
    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    @inline(__always)
    func check(_ code: Int32, sql: String?) throws {
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
    }

    /// Runs `sql` and returns each row as text by `names`, one name per column.
    func rows(_ sql: String, _ arguments: [Value] = [], names: [String]) throws -> [[String: String]] {
        var rows: [[String: String]] = []
        try cached(sql).query(arguments) { statement in
            var row: [String: String] = [:]
            for (index, name) in names.enumerated() { row[name] = statement.text(Int32(index)) ?? "" }
            rows.append(row)
        }
        return rows
    }

    /// Runs `sql` and returns the first column of each row as text.
    func strings(_ sql: String, _ arguments: [Value] = []) throws -> [String] {
        var result: [String] = []
        try cached(sql).query(arguments) { result.append($0.text(0) ?? "") }
        return result
    }

    /// The definition SQLite keeps of table `name` (`sqlite_master.sql`); nil when there is none.
    func storedDefinition(ofTable name: String) throws -> String? {
        try strings("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.string(name)]).first
    }

    /// The first column of the first row as an integer (0 when there is no row).
    func integer(_ sql: String, _ arguments: [Value] = []) throws -> Int64 {
        var result: Int64 = 0
        var first = true
        try cached(sql).query(arguments) { statement in
            if first { result = statement.int64(0) }
            first = false
        }
        return result
    }
}
