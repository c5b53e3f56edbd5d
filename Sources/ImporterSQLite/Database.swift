import CSQLite
import Foundation
import ImporterCore

/// A thin owner of one sqlite3 connection. Not thread-safe: one thread uses it at a time.
final class Database {
    let handle: OpaquePointer
    let path: String

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
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 10_000)
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
    }

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql: sql) }
        return Statement(statement, database: self, sql: sql)
    }

    /// True outside a transaction (SQLite's autocommit mode).
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Rows changed by this connection since it was opened.
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// The rowid of the last successful INSERT; an upsert that updates leaves it alone.
    var lastInsertRowid: Int64 {
        get { sqlite3_last_insert_rowid(handle) }
        set { sqlite3_set_last_insert_rowid(handle, newValue) }
    }

    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Runs `query` and returns each row as text by `names`, one name per column.
    func rows(_ query: String, names: [String]) throws -> [[String: String]] {
        let statement = try prepare(query)
        var rows: [[String: String]] = []
        while try statement.step() {
            var row: [String: String] = [:]
            for (index, name) in names.enumerated() { row[name] = statement.text(Int32(index)) ?? "" }
            rows.append(row)
        }
        return rows
    }

    /// Runs `query` and returns the first column of each row as text.
    func strings(_ query: String) throws -> [String] {
        let statement = try prepare(query)
        var result: [String] = []
        while try statement.step() { result.append(statement.text(0) ?? "") }
        return result
    }
}

/// A prepared statement: bind, step, read columns, reset.
final class Statement {
    let handle: OpaquePointer
    unowned let database: Database
    let sql: String

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: Int32, int64 value: Int64) { sqlite3_bind_int64(handle, index, value) }
    func bind(_ index: Int32, double value: Double) { sqlite3_bind_double(handle, index, value) }
    func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }

    func bind(_ index: Int32, text value: String) {
        // Native strings are contiguous: bound without copying the String first.
        let bound = value.utf8.withContiguousStorageIfAvailable { bytes in
            sqlite3_bind_text(handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                              Int32(bytes.count), Self.transient)
        }
        if bound == nil {
            var value = value
            _ = value.withUTF8 { bytes in
                sqlite3_bind_text(handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                                  Int32(bytes.count), Self.transient)
            }
        }
    }

    /// A date as `YYYY-MM-DDTHH:MM:SS.sssZ` text, formatted without allocating.
    func bind(_ index: Int32, date millis: Int64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ISO8601.maximumLength) { buffer in
            let count = ISO8601.format(millis: millis, into: buffer)
            sqlite3_bind_text(handle, index, UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self),
                              Int32(count), Self.transient)
        }
    }

    /// Steps once: true when a row is available, false when done.
    @discardableResult
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Readies the statement for its next execution. Bindings stay: every caller binds every
    /// parameter before stepping, so clearing them per row would be wasted work.
    func reset() {
        sqlite3_reset(handle)
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}
