import Foundation

/// The Swift types a property of a typed store (`TypedItems`) can have, and the attribute types
/// each can hold without loss.
enum StoredType: String {
    case string = "String", int = "Int", int64 = "Int64", int32 = "Int32", int16 = "Int16"
    case double = "Double", float = "Float", bool = "Bool", decimal = "Decimal", date = "Date"
    case data = "Data", uuid = "UUID", url = "URL"

    init?(_ type: Any.Type) {
        switch type {
        case is String.Type: self = .string
        case is Int.Type: self = .int
        case is Int64.Type: self = .int64
        case is Int32.Type: self = .int32
        case is Int16.Type: self = .int16
        case is Double.Type: self = .double
        case is Float.Type: self = .float
        case is Bool.Type: self = .bool
        case is Decimal.Type: self = .decimal
        case is Date.Type: self = .date
        case is Data.Type: self = .data
        case is UUID.Type: self = .uuid
        case is URL.Type: self = .url
        default: return nil
        }
    }

    /// Whether every value of an attribute of `type` fits this Swift type.
    func holds(_ type: AttributeType) -> Bool {
        switch self {
        case .string: return [.string, .uuid, .uri, .decimal].contains(type)
        case .int, .int64: return [.int16, .int32, .int64].contains(type)
        case .int32: return [.int16, .int32].contains(type)
        case .int16: return type == .int16
        case .double: return [.double, .float].contains(type)
        case .float: return type == .float
        case .bool: return type == .boolean
        case .decimal: return [.decimal, .int16, .int32, .int64].contains(type)
        case .date: return type == .date
        case .data: return type == .binary
        case .uuid: return type == .uuid
        case .url: return type == .uri
        }
    }

    /// The `index`-th value of this type (from 1), told apart from other indexes' values for
    /// every type but `Bool` (`TypeShape.property(readBy:entity:)`).
    func marker(_ index: Int) -> AnyHashable {
        switch self {
        case .string: return "\u{1}\(index)"
        case .int: return index
        case .int64: return Int64(index)
        case .int32: return Int32(truncatingIfNeeded: index)
        case .int16: return Int16(truncatingIfNeeded: index)
        case .double: return Double(index)
        case .float: return Float(index)
        case .bool: return index % 2 == 0
        case .decimal: return Decimal(index)
        case .date: return Date(timeIntervalSince1970: Double(index))
        case .data: return Data([UInt8(truncatingIfNeeded: index)])
        case .uuid:
            return UUID(
                uuid: (
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(truncatingIfNeeded: index >> 8),
                    UInt8(truncatingIfNeeded: index)
                ))
        case .url: return URL(string: "marker:\(index)")!
        }
    }

    /// A value of this type, for reading a type's shape (`TypeShape`).
    var placeholder: Any {
        switch self {
        case .string: return ""
        case .int: return 0 as Int
        case .int64: return 0 as Int64
        case .int32: return 0 as Int32
        case .int16: return 0 as Int16
        case .double: return 0 as Double
        case .float: return 0 as Float
        case .bool: return false
        case .decimal: return Decimal(0)
        case .date: return Date(timeIntervalSince1970: 0)
        case .data: return Data()
        case .uuid: return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case .url: return URL(string: "about:blank")!
        }
    }
}
