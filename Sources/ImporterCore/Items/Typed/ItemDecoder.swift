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
                throw DecodingError.valueNotFound(
                    type, .init(codingPath: codingPath + [key], debugDescription: "the item has no \(key.stringValue)"))
            }
            guard let stored = StoredType(type), let result = Self.convert(value, to: stored) as? T else {
                throw DecodingError.typeMismatch(
                    type,
                    .init(
                        codingPath: codingPath + [key],
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
