/// An entity: a table of versioned items with a hash key.
public struct Entity: Sendable {
    public let name: String
    /// The store's table name (DynamoDB's table per entity).
    public let table: String
    public let hashKey: String
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
    public let versionIndex: Int

    public init(
        name: String, table: String, hashKey: String, versionAttribute: String,
        attributes: [Attribute], relationships: [Relationship], renamedFrom: String? = nil,
        line: Int? = nil
    ) {
        self.name = name
        self.table = table
        self.hashKey = hashKey
        self.versionAttribute = versionAttribute
        self.attributes = attributes
        self.relationships = relationships
        self.renamedFrom = renamedFrom
        self.line = line
        self.attributeIndex = Dictionary(uniqueKeysWithValues: attributes.enumerated().map { ($1.name, $0) })
        self.hashKeyIndex = attributeIndex[hashKey]!
        self.versionIndex = attributeIndex[versionAttribute]!
    }

    /// The same entity with attribute objects of its own, for a thread that reads them for every
    /// record: reference counting on objects that two threads share slows both down.
    public func withOwnAttributes() -> Entity {
        Entity(name: name, table: table, hashKey: hashKey, versionAttribute: versionAttribute, attributes: attributes.map { $0.copy() },
               relationships: relationships, renamedFrom: renamedFrom, line: line)
    }

    public func attribute(named name: String) -> Attribute? {
        attributeIndex[name].map { attributes[$0] }
    }

    /// To-one relationships: each names the attribute holding a parent's hash key.
    public var toOneRelationships: [Relationship] { relationships.filter { !$0.toMany } }
}
