import CSQLite
import ImporterCore

/// An error from SQLite: the result code, SQLite's message, the SQL that failed and the
/// arguments bound to it, so that a user reads what the store refused and why.
///
///     SQLite error 2067 (constraint failed): UNIQUE constraint failed: Product.sku
///       while executing: INSERT INTO "Product" ("sku", "name") VALUES (?, ?)
///
/// The description shows the statement's first 200 characters and never the arguments: they
/// are a record's values, which may be private and end up in CI logs (as GRDB does). They stay
/// in `arguments` for a program that wants them; `describe(_:)` shows them shortened.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, 2067); `primaryCode` is its low byte.
    public let code: Int32
    /// SQLite's message (`sqlite3_errmsg`) when the error happened.
    public let message: String
    /// The statement that failed, nil for errors outside one (opening a file).
    public let sql: String?
    /// The values bound to the statement's parameters 1…n, as far as they are known; empty
    /// when it has none.
    public internal(set) var arguments: [Value]

    init(code: Int32, message: String, sql: String?, arguments: [Value] = []) {
        self.code = code
        self.message = message
        self.sql = sql
        self.arguments = arguments
    }

    /// The primary result code (`SQLITE_CONSTRAINT`, 19).
    public var primaryCode: Int32 { code & 0xFF }

    public var description: String {
        var text = "SQLite error \(code) (\(String(cString: sqlite3_errstr(code)))): \(message)"
        if let sql {
            let line = Self.oneLine(sql)
            text += "\n  while executing: " + (line.count > Self.maximumSQL ? line.prefix(Self.maximumSQL) + "…" : line)
        }
        return text
    }

    /// Errors about the database as a whole rather than one record: the run must stop.
    public var isFatal: Bool {
        switch primaryCode {
        case SQLITE_FULL, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_NOMEM, SQLITE_READONLY, SQLITE_CANTOPEN,
            SQLITE_NOTADB, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PERM:
            return true
        default:
            return false
        }
    }

    /// The SQL on one line: runs of white space (indentation, line breaks) become one space.
    private static func oneLine(_ sql: String) -> String {
        sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }

    /// The arguments as SQL literals of what was bound, long texts and long lists shortened.
    static func describe(_ arguments: [Value]) -> String {
        let shown = arguments.prefix(maximumArguments).map { argument -> String in
            switch argument {
            case .null: return "NULL"
            case .integer(let number): return String(number)
            case .boolean(let flag): return flag ? "1" : "0"
            case .double(let number): return String(number)
            case .string(let text), .decimal(let text): return literal(text)
            case .date(let millis): return literal(ISO8601.format(millis: millis))
            case .pair: return literal(argument.description)
            case .binary(let bytes):
                return "X'" + bytes.prefix(16).map { String(format: "%02X", $0) }.joined()
                    + (bytes.count > 16 ? "…'" : "'")
            }
        }
        let rest = arguments.count - shown.count
        return shown.joined(separator: ", ") + (rest > 0 ? ", … (\(rest) more)" : "")
    }

    private static let maximumSQL = 200
    private static let maximumArguments = 32
    private static let maximumText = 60

    private static func literal(_ text: String) -> String {
        let cut = text.count > maximumText ? text.prefix(maximumText) + "…" : Substring(text)
        return "'" + cut.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
