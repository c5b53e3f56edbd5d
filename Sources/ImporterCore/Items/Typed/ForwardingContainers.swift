/// A keyed decoding container that answers every `decode` and `decodeIfPresent` through one
/// generic function: the many typed requirements of `KeyedDecodingContainerProtocol`, once.
protocol ForwardingDecodingContainer: KeyedDecodingContainerProtocol {
    /// The value for `key` as `T`; nil only when `optional` and the item has no value.
    func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key, optional: Bool) throws -> T?
}

extension ForwardingDecodingContainer {
    private func required<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        guard let value = try decodeValue(type, forKey: key, optional: false) else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "no value"))
        }
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try required(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try required(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try required(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try required(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try required(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try required(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try required(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try required(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try required(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try required(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try required(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try required(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try required(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try required(type, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try decodeValue(type, forKey: key, optional: true)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try decodeValue(type, forKey: key, optional: true)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw ItemCoding.flat(codingPath + [key])
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        throw ItemCoding.flat(codingPath + [key])
    }
    func superDecoder() throws -> Decoder { throw ItemCoding.flat(codingPath) }
    func superDecoder(forKey key: Key) throws -> Decoder { throw ItemCoding.flat(codingPath + [key]) }
}

/// A keyed encoding container that takes every `encode` through one generic function.
protocol ForwardingEncodingContainer: KeyedEncodingContainerProtocol {
    mutating func encodeValue<T: Encodable>(_ value: T, forKey key: Key) throws
    /// Tells the item's encoder that a value asked for a nested container, which an item cannot hold.
    var refuse: ([CodingKey]) -> Void { get }
}

extension ForwardingEncodingContainer {
    mutating func encode(_ value: Bool, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encodeValue(value, forKey: key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        refuse(codingPath + [key])
        return KeyedEncodingContainer(
            RefusingEncodingContainer<NestedKey>(codingPath: codingPath + [key], refuse: refuse))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        refuse(codingPath + [key])
        return RefusingUnkeyedContainer(codingPath: codingPath + [key], refuse: refuse)
    }
    mutating func superEncoder() -> Encoder {
        refuse(codingPath); return RefusingEncoder(codingPath: codingPath, refuse: refuse)
    }
    mutating func superEncoder(forKey key: Key) -> Encoder {
        refuse(codingPath + [key])
        return RefusingEncoder(codingPath: codingPath + [key], refuse: refuse)
    }
}

/// Where a nested value would be encoded: nowhere. The item's encoder was told (`refuse`) and
/// throws once the value's `encode(to:)` returns.
struct RefusingEncodingContainer<Key: CodingKey>: ForwardingEncodingContainer {
    var codingPath: [CodingKey]
    let refuse: ([CodingKey]) -> Void
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encodeValue<T: Encodable>(_ value: T, forKey key: Key) throws {}
}

struct RefusingUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [CodingKey]
    let refuse: ([CodingKey]) -> Void
    var count: Int { 0 }
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        KeyedEncodingContainer(RefusingEncodingContainer<NestedKey>(codingPath: codingPath, refuse: refuse))
    }
    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> Encoder { RefusingEncoder(codingPath: codingPath, refuse: refuse) }
}

struct RefusingEncoder: Encoder {
    var codingPath: [CodingKey]
    let refuse: ([CodingKey]) -> Void
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RefusingEncodingContainer<Key>(codingPath: codingPath, refuse: refuse))
    }
    func unkeyedContainer() -> UnkeyedEncodingContainer {
        RefusingUnkeyedContainer(codingPath: codingPath, refuse: refuse)
    }
    func singleValueContainer() -> SingleValueEncodingContainer { RefusingSingleValue(codingPath: codingPath) }
}

struct RefusingSingleValue: SingleValueEncodingContainer {
    var codingPath: [CodingKey]
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
}

/// Errors of the item coders.
enum ItemCoding {
    /// An item is one level of attributes: no nested objects or lists.
    static func flat(_ path: [CodingKey]) -> Error {
        DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: nestedMessage(path)))
    }

    static func nestedMessage(_ path: [CodingKey]) -> String {
        "an item's attributes are flat: \(path.map(\.stringValue).joined(separator: ".")) is nested"
    }
}
