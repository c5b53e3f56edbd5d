/// Core Data's attribute types, as named in a model file.
public enum AttributeType: String, Sendable, CaseIterable {
    case string, int16, int32, int64, decimal, double, float, date, boolean
    /// A UUID, stored as its canonical lower-case text (Core Data's UUID attribute).
    case uuid
    /// An absolute URI, stored as its text (Core Data's URI attribute).
    case uri
    /// Bytes: base64 in CSV and JSON, a BLOB in SQLite, B in DynamoDB (Core Data's Binary Data).
    case binary

    /// Types that can hold an entity's hash key.
    public var canBeKey: Bool {
        switch self {
        case .string, .int16, .int32, .int64, .decimal, .uuid: return true
        default: return false
        }
    }

    public var isInteger: Bool { self == .int16 || self == .int32 || self == .int64 }

    /// Types whose values are text (`Value.string`).
    public var isText: Bool { self == .string || self == .uuid || self == .uri }

    /// The inclusive range of an integer type.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .int16: return Int64(Int16.min)...Int64(Int16.max)
        case .int32: return Int64(Int32.min)...Int64(Int32.max)
        case .int64: return Int64.min...Int64.max
        default: return nil
        }
    }
}
