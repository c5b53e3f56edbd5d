import CSQLite
import ImporterCore

/// A prepared statement: bind, step, read columns, reset. Every bind and step is checked; an
/// error names the statement's SQL, and, through `execute`, `query` or `withArguments`, the
/// arguments that were bound.
final class Statement {
    let handle: OpaquePointer
    let sql: String

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// `handle`: prepared on a connection that `sqlite3_close_v2` closes, so that the
    /// connection stays usable (for `error`) until its last statement is finalized.
    init(_ handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    /// `sqlite3_finalize` returns the last step's result, which `step` has already checked.
    deinit { sqlite3_finalize(handle) }

    /// The error SQLite reports for `code` now, with this statement's SQL. The connection is
    /// reached through the statement, which may outlive the `Database` that prepared it.
    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))), sql: sql)
    }

    // MARK: Binding

    @inline(__always)
    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw error(code) }
    }

    func bind(_ index: Int32, int64 value: Int64) throws { try check(sqlite3_bind_int64(handle, index, value)) }
    func bind(_ index: Int32, double value: Double) throws { try check(sqlite3_bind_double(handle, index, value)) }
    func bindNull(_ index: Int32) throws { try check(sqlite3_bind_null(handle, index)) }

    func bind(_ index: Int32, blob bytes: [UInt8]) throws {
        // An empty array has no base address, which SQLite would store as NULL.
        guard !bytes.isEmpty else { return try check(sqlite3_bind_zeroblob(handle, index, 0)) }
        try check(
            bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) })
    }

    func bind(_ index: Int32, text value: String) throws {
        // Native strings are contiguous: bound without copying the String first.
        let bound = value.utf8.withContiguousStorageIfAvailable { bytes in
            sqlite3_bind_text(
                handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                Int32(bytes.count), Self.transient)
        }
        if let bound { return try check(bound) }
        var value = value
        try check(
            value.withUTF8 { bytes in
                sqlite3_bind_text(
                    handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                    Int32(bytes.count), Self.transient)
            })
    }

    /// A date as `YYYY-MM-DDTHH:MM:SS.sssZ` text, formatted without allocating.
    func bind(_ index: Int32, date millis: Int64) throws {
        try check(
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ISO8601.maximumLength) { buffer in
                let count = ISO8601.format(millis: millis, into: buffer)
                return sqlite3_bind_text(
                    handle, index, UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self),
                    Int32(count), Self.transient)
            })
    }

    /// Binds a value as it is stored (docs/values.md, `ValueColumns`). With `text`, the bytes of
    /// a string, a decimal or a date are copied there and SQLite reads them in place, without a
    /// copy of its own: `text` must keep them until this statement has run and is bound anew.
    /// Returns the text so bound, where it is in `text`, or nil.
    /// Inlined: called, it would take its own copy of the value, a retain of the text that the
    /// thread which made it shares (staging binds every column of every row).
    @inline(__always) @discardableResult
    func bind(_ value: Value, at index: Int32, textIn text: BoundText? = nil) throws -> UnsafeRawBufferPointer? {
        switch value {
        case .null: try bindNull(index)
        case .string(let string), .decimal(let string):
            guard let copied = text?.copy(string) else {
                try bind(index, text: string)
                return nil
            }
            try check(bindStatic(index, copied.bytes, copied.count))
            return UnsafeRawBufferPointer(start: copied.bytes, count: copied.count)
        case .integer(let number): try bind(index, int64: number)
        case .double(let number): try bind(index, double: number)
        case .date(let millis):
            guard let text, let room = text.reserve(ISO8601.maximumLength) else {
                try bind(index, date: millis)
                return nil
            }
            let count = ISO8601.format(
                millis: millis,
                into: UnsafeMutableBufferPointer(
                    start: room.assumingMemoryBound(to: UInt8.self), count: ISO8601.maximumLength))
            text.giveBack(ISO8601.maximumLength - count)
            try check(bindStatic(index, UnsafeRawPointer(room), count))
            return UnsafeRawBufferPointer(start: room, count: count)
        case .boolean(let flag): try bind(index, int64: flag ? 1 : 0)
        case .binary(let bytes): try bind(index, blob: bytes)
        case .pair:
            // A (hash, range) key binds as its two attributes (`Entity.keyParts`), never as one value.
            throw SQLiteError(code: SQLITE_MISUSE, message: "a (hash, range) key bound as one value", sql: sql)
        }
        return nil
    }

    @inline(__always)
    private func bindStatic(_ index: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int32 {
        sqlite3_bind_text(handle, index, bytes.assumingMemoryBound(to: CChar.self), Int32(count), nil)
    }

    /// Binds text that SQLite reads in place: `bytes` must stay until this statement has run
    /// and is bound anew.
    func bind(_ index: Int32, textInPlace bytes: UnsafeBufferPointer<UInt8>) throws {
        guard let start = bytes.baseAddress else { return try check(sqlite3_bind_text(handle, index, "", 0, nil)) }
        try check(bindStatic(index, UnsafeRawPointer(start), bytes.count))
    }

    /// Binds the first `count` columns of `row`'s current row as they are stored (type and
    /// bytes) to the parameters 1…`count`.
    func bind(columnsOf row: Statement, count: Int32) throws {
        for column in 0..<count {
            try check(sqlite3_bind_value(handle, column + 1, sqlite3_column_value(row.handle, column)))
        }
    }

    /// Binds `arguments` to parameters 1…n.
    func bind(_ arguments: [Value]) throws {
        for (index, value) in arguments.enumerated() { try bind(value, at: Int32(index + 1)) }
    }

    // MARK: Running

    /// Steps once: true when a row is available, false when done. A failed step resets the
    /// statement (its error is the step's).
    @discardableResult
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = self.error(code)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Readies the statement for its next execution. Its result is the last step's, already
    /// checked by `step`. Bindings stay: every caller binds every parameter before stepping,
    /// so clearing them per row would be wasted work.
    func reset() {
        sqlite3_reset(handle)
    }

    /// Runs `body`; an `SQLiteError` it throws without arguments gets `arguments`, which are
    /// computed only then (the write path binds values one by one, without making an array).
    @inline(__always)
    func withArguments<T>(_ arguments: @autoclosure () -> [Value], _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as SQLiteError where error.arguments.isEmpty {
            error.arguments = arguments()
            throw error
        }
    }

    /// Binds `arguments`, steps once (a row, if any, is ignored) and resets.
    func execute(_ arguments: [Value] = []) throws {
        try withArguments(arguments) {
            try bind(arguments)
            defer { reset() }
            try step()
        }
    }

    /// Binds `arguments` and calls `row` with each row of the result, then resets.
    func query(_ arguments: [Value] = [], row: (Statement) throws -> Void) throws {
        try withArguments(arguments) {
            try bind(arguments)
            defer { reset() }
            while try step() { try row(self) }
        }
    }

    // MARK: Columns

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func blob(_ column: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column))))
    }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}
