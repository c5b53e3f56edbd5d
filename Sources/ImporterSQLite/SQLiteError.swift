import CSQLite

/// An error from SQLite, with the result code, SQLite's message and the SQL that failed.
public struct SQLiteError: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public let sql: String?

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }

    /// Errors about the database as a whole rather than one record: the run must stop.
    public var isFatal: Bool {
        switch code & 0xFF {
        case SQLITE_FULL, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_NOMEM, SQLITE_READONLY, SQLITE_CANTOPEN,
             SQLITE_NOTADB, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PERM:
            return true
        default:
            return false
        }
    }
}
