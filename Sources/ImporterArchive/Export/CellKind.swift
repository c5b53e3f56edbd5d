import ImporterCore

/// How an attribute's cells are written, from its type.
enum CellKind {
    case text, decimal, integer, double, boolean, date, binary

    init(_ type: AttributeType) {
        switch type {
        case .string, .uuid, .uri: self = .text
        case .binary: self = .binary
        case .decimal: self = .decimal
        case .int16, .int32, .int64: self = .integer
        case .double, .float: self = .double
        case .boolean: self = .boolean
        case .date: self = .date
        }
    }
}
