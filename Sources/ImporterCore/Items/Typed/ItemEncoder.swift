import Foundation

/// Writes an `Encodable` value as an item: each property as the attribute of its name, nil
/// properties left out (stored as null, or the attribute's default on insert).
enum ItemEncoder {
    static func item<T: Encodable>(from value: T) throws -> Item {
        let encoded = Encoded()
        try value.encode(to: Encoder(encoded: encoded))
        if let path = encoded.nested {
            throw EncodingError.invalidValue(
                value, .init(codingPath: path, debugDescription: ItemCoding.nestedMessage(path)))
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
                throw EncodingError.invalidValue(
                    value,
                    .init(
                        codingPath: codingPath + [key],
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
