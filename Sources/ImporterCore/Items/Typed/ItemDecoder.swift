import Foundation

/// Reads a `Decodable` value from an item: each property from the attribute of its name (or
/// its `CodingKeys` string), converted exactly (`StoredType`); a stored null is nil for an
/// optional property and an error for any other.
struct ItemDecoder: Decoder {
    let item: Item
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container<Key>(item: item, codingPath: codingPath))
    }
    func unkeyedContainer() throws -> UnkeyedDecodingContainer { throw ItemCoding.flat(codingPath) }
    func singleValueContainer() throws -> SingleValueDecodingContainer { throw ItemCoding.flat(codingPath) }

    private struct Container<Key: CodingKey>: ForwardingDecodingContainer {
        let item: Item
        var codingPath: [CodingKey]
        var allKeys: [Key] { item.values.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { !item[key.stringValue].isNull }
        func decodeNil(forKey key: Key) throws -> Bool { item[key.stringValue].isNull }

        func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key, optional: Bool) throws -> T? {
            let value = item[key.stringValue]
            if value.isNull {
                if optional { return nil }
                throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "the item has no \(key.stringValue)"))
            }
            guard let stored = StoredType(type), let result = Self.convert(value, to: stored) as? T else {
                throw DecodingError.typeMismatch(type, .init(codingPath: codingPath + [key],
                    debugDescription: "\(key.stringValue) holds \(value), which a \(T.self) cannot hold"))
            }
            return result
        }

        static func convert(_ value: Value, to type: StoredType) -> Any? {
            switch (type, value) {
            case (.string, .string(let text)), (.string, .decimal(let text)): return text
            case (.int, .integer(let number)): return Int(exactly: number)
            case (.int64, .integer(let number)): return number
            case (.int32, .integer(let number)): return Int32(exactly: number)
            case (.int16, .integer(let number)): return Int16(exactly: number)
            case (.double, .double(let number)): return number
            case (.double, .integer(let number)): return Double(number)
            case (.float, .double(let number)): return Float(number)
            case (.bool, .boolean(let flag)): return flag
            case (.decimal, .decimal(let text)): return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            case (.decimal, .integer(let number)): return Decimal(number)
            case (.date, .date(let millis)): return Date(timeIntervalSince1970: Double(millis) / 1000)
            case (.data, .binary(let bytes)): return Data(bytes)
            case (.uuid, .string(let text)): return UUID(uuidString: text)
            case (.url, .string(let text)): return URL(string: text)
            default: return nil
            }
        }
    }
}

/// Writes an `Encodable` value as an item: each property as the attribute of its name, nil
/// properties left out (stored as null, or the attribute's default on insert).
enum ItemEncoder {
    static func item<T: Encodable>(from value: T) throws -> Item {
        let encoded = Encoded()
        try value.encode(to: Encoder(encoded: encoded))
        if let path = encoded.nested {
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: ItemCoding.nestedMessage(path)))
        }
        return Item(encoded.values)
    }

    private final class Encoded {
        var values: [String: Value] = [:]
        /// The first property that asked for a nested container.
        var nested: [CodingKey]?
    }

    private struct Encoder: Swift.Encoder {
        let encoded: Encoded
        var codingPath: [CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Container<Key>(encoded: encoded, codingPath: codingPath))
        }
        func unkeyedContainer() -> UnkeyedEncodingContainer {
            refuse(codingPath)
            return RefusingUnkeyedContainer(codingPath: codingPath, refuse: refuse)
        }
        func singleValueContainer() -> SingleValueEncodingContainer {
            refuse(codingPath)
            return RefusingSingleValue(codingPath: codingPath)
        }
        func refuse(_ path: [CodingKey]) { if encoded.nested == nil { encoded.nested = path } }
    }

    private struct Container<Key: CodingKey>: ForwardingEncodingContainer {
        let encoded: Encoded
        var codingPath: [CodingKey]
        var refuse: ([CodingKey]) -> Void { { [encoded] path in if encoded.nested == nil { encoded.nested = path } } }

        mutating func encodeNil(forKey key: Key) throws { encoded.values[key.stringValue] = .null }

        mutating func encodeValue<T: Encodable>(_ value: T, forKey key: Key) throws {
            guard let converted = Self.convert(value) else {
                throw EncodingError.invalidValue(value, .init(codingPath: codingPath + [key],
                    debugDescription: "\(key.stringValue) is a \(T.self), which no attribute type holds"))
            }
            encoded.values[key.stringValue] = converted
        }

        static func convert(_ value: Any) -> Value? {
            switch value {
            case let flag as Bool: return .boolean(flag)
            case let text as String: return .string(text)
            case let number as Int: return .integer(Int64(number))
            case let number as Int64: return .integer(number)
            case let number as Int32: return .integer(Int64(number))
            case let number as Int16: return .integer(Int64(number))
            case let number as Double: return .double(number)
            case let number as Float: return .double(Double(number))
            case let number as Decimal: return .decimal(number.description)
            case let date as Date: return .date(Int64((date.timeIntervalSince1970 * 1000).rounded()))
            case let data as Data: return .binary(Array(data))
            case let uuid as UUID: return .string(uuid.uuidString.lowercased())
            case let url as URL: return .string(url.absoluteString)
            default: return nil
            }
        }
    }
}
