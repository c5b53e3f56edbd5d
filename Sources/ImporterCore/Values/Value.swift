/// A typed value of an attribute, in its canonical form.
///
/// Decimals are canonical decimal text (exact, never binary floating point); dates are
/// milliseconds since 1970-01-01T00:00:00Z.
public enum Value: Hashable, Sendable, CustomStringConvertible {
    case null
    case string(String)
    case integer(Int64)
    case double(Double)
    case decimal(String)
    case date(Int64)
    case boolean(Bool)
    case binary([UInt8])
    /// The key of an item with a range key: (hash, range).
    indirect case pair(Value, Value)

    /// A cheap 64-bit sort key for writing keys in index order: integers by value, text by its
    /// first eight bytes. Records sorted by it land on neighbouring pages of a store's key index.
    public var localityKey: UInt64 {
        switch self {
        case .integer(let number): return UInt64(bitPattern: number) ^ (1 << 63)
        case .string(let text), .decimal(let text):
            var key: UInt64 = 0
            var count = 0
            for byte in text.utf8.prefix(8) {
                key = key << 8 | UInt64(byte)
                count += 1
            }
            return key << (8 * UInt64(8 - count))
        default: return 0
        }
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The key held at `indices` of `values` (an item's own key, or the key a reference names):
    /// the one value, or `.pair(hash, range)` for two; null when any part is null.
    @inline(__always)
    public static func key(_ values: [Value], at indices: [Int]) -> Value { key(at: indices) { values[$0] } }

    /// The key held at `indices` of values read one at a time by `value` (packed ones, say).
    @inline(__always)
    package static func key(at indices: [Int], _ value: (Int) -> Value) -> Value {
        let hash = value(indices[0])
        guard indices.count == 2 else { return hash }
        let range = value(indices[1])
        return hash.isNull || range.isNull ? .null : .pair(hash, range)
    }

    /// The text a user would write for this value (dates as `YYYY-MM-DDTHH:MM:SS.sssZ`).
    public var description: String {
        switch self {
        case .null: return "null"
        case .string(let text), .decimal(let text): return text
        case .integer(let number): return String(number)
        case .double(let number): return String(number)
        case .date(let millis): return ISO8601.format(millis: millis)
        case .boolean(let flag): return flag ? "true" : "false"
        case .binary(let bytes): return Base64.encode(bytes)
        case .pair(let hash, let range):
            return "[\(JSONText.quote(hash.description)), \(JSONText.quote(range.description))]"
        }
    }
}

/// A field as a reader found it, before it is typed against the model.
public enum FieldValue: Sendable, Equatable {
    case null
    /// CSV cell text or a JSON string.
    case text(String)
    /// A JSON number, as its exact source text.
    case number(String)
    case bool(Bool)
    /// A JSON object or array, as JSON text.
    case composite(String)
    /// A DynamoDB set, list or map (`type` SS, NS, BS, L or M) as the exact text of its typed
    /// value, `{"SS":["a","b"]}`: a string attribute stores that text, any other type refuses it.
    case collection(type: String, json: String)

    package var isNull: Bool { if case .null = self { return true } else { return false } }
}
