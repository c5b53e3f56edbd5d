/// An entity: a table of versioned items with a hash key, and perhaps a range (sort) key.
public struct Entity: Sendable {
    public let name: String
    /// The store's table name (DynamoDB's table per entity).
    public let table: String
    public let hashKey: String
    /// With a range key, an item is identified by the pair (hash, range) (docs/model.md#composite-keys).
    public let rangeKey: String?
    public let versionAttribute: String
    /// Attributes in model-file order; `attributeIndex` maps names to positions here.
    public let attributes: [Attribute]
    public let relationships: [Relationship]
    public let renamedFrom: String?
    /// The line of the entity in its model file, for messages.
    public let line: Int?
    public let attributeIndex: [String: Int]
    /// Positions of the hash key and the version attribute in `attributes` (hot paths use them
    /// for every record).
    public let hashKeyIndex: Int
    public let rangeKeyIndex: Int?
    public let versionIndex: Int
    /// The key attributes: the hash key, then the range key if there is one.
    public let keyAttributes: [String]
    /// The positions of the key attributes (made once: scans read them for every row).
    public let keyIndices: [Int]

    public init(
        name: String, table: String, hashKey: String, rangeKey: String? = nil, versionAttribute: String,
        attributes: [Attribute], relationships: [Relationship], renamedFrom: String? = nil,
        line: Int? = nil
    ) {
        self.name = name
        self.table = table
        self.hashKey = hashKey
        self.rangeKey = rangeKey
        self.versionAttribute = versionAttribute
        self.attributes = attributes
        self.relationships = relationships
        self.renamedFrom = renamedFrom
        self.line = line
        let attributeIndex = Dictionary(uniqueKeysWithValues: attributes.enumerated().map { ($1.name, $0) })
        self.attributeIndex = attributeIndex
        self.hashKeyIndex = attributeIndex[hashKey]!
        self.rangeKeyIndex = rangeKey.map { attributeIndex[$0]! }
        self.versionIndex = attributeIndex[versionAttribute]!
        self.keyAttributes = [hashKey] + (rangeKey.map { [$0] } ?? [])
        self.keyIndices = keyAttributes.map { attributeIndex[$0]! }
    }

    /// The same entity with attribute objects of its own, for a thread that reads them for every
    /// record: reference counting on objects that two threads share slows both down.
    public func withOwnAttributes() -> Entity {
        Entity(
            name: name, table: table, hashKey: hashKey, rangeKey: rangeKey, versionAttribute: versionAttribute,
            attributes: attributes.map { $0.copy() },
            relationships: relationships, renamedFrom: renamedFrom, line: line)
    }

    /// An item's key from its values: the hash key's value, or `.pair(hash, range)`. Null when
    /// a key attribute is null.
    @inline(__always)
    public func key(of values: [Value]) -> Value { Value.key(values, at: keyIndices) }

    /// The key attributes' values of `key` (`key(of:)`'s parts).
    public func keyParts(_ key: Value) -> [Value] {
        if case .pair(let hash, let range) = key { return [hash, range] }
        return [key]
    }

    /// `sku 'P1'`, or `(stationId, hour) ('ST1', 2024-06-01T10:00:00.000Z)`: a key for messages.
    public func describe(key: Value) -> String {
        guard let rangeKey else { return "\(hashKey) '\(key)'" }
        return "(\(hashKey), \(rangeKey)) \(key)"
    }

    public func attribute(named name: String) -> Attribute? {
        attributeIndex[name].map { attributes[$0] }
    }

    /// To-one relationships: each names the attribute holding a parent's hash key.
    public var toOneRelationships: [Relationship] { relationships.filter { !$0.toMany } }
}
