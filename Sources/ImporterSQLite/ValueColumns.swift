import ImporterCore

/// How attribute values are stored in SQLite columns (docs/values.md).
enum ValueColumns {
    static func sqlType(_ type: AttributeType) -> String {
        switch type {
        case .string, .decimal, .date, .uuid, .uri: return "TEXT"
        case .int16, .int32, .int64, .boolean: return "INTEGER"
        case .double, .float: return "REAL"
        case .binary: return "BLOB"
        }
    }

    /// The value of a column written by `Statement.bind(_:at:)`, typed by the attribute.
    static func read(_ statement: Statement, column: Int32, as type: AttributeType) -> Value {
        if statement.isNull(column) { return .null }
        switch type {
        case .string, .uuid, .uri: return .string(statement.text(column) ?? "")
        case .binary: return .binary(statement.blob(column))
        case .decimal: return .decimal(statement.text(column) ?? "")
        case .int16, .int32, .int64: return .integer(statement.int64(column))
        case .double, .float: return .double(statement.double(column))
        case .boolean: return .boolean(statement.int64(column) != 0)
        case .date:
            let text = statement.text(column) ?? ""
            if case .success(let millis) = ISO8601.parse(text) { return .date(millis) }
            return .string(text)  // not written by importer: compares unequal, so it gets rewritten
        }
    }
}

/// `"name"` with embedded quotes doubled.
func quoted(_ identifier: String) -> String {
    // Most names have no quote: Foundation's search for one costs more than the rest of a query's text.
    guard identifier.utf8.contains(34) else { return "\"" + identifier + "\"" }
    return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
