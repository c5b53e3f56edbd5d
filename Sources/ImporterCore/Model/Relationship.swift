/// What happens to dependants when an item is deleted.
public enum DeleteRule: String, Sendable {
    case nullify, cascade, deny
}

/// A to-one or to-many relationship between two entities.
///
/// A to-one relationship names the attributes (`keys`) that hold the destination's key: its
/// hash key, or its hash and range keys; a to-many relationship is the inverse of a to-one.
public struct Relationship: Sendable {
    public let name: String
    public let destination: String
    public let toMany: Bool
    public let inverse: String?
    /// The attributes holding the destination's key, in its key order (to-one only; empty on a to-many).
    public let keys: [String]
    public let deleteRule: DeleteRule

    /// Whether the relationship is to-one (it holds the destination's key).
    public var isToOne: Bool { !keys.isEmpty }

    public init(
        name: String, destination: String, toMany: Bool, inverse: String?, keys: [String], deleteRule: DeleteRule
    ) {
        self.name = name
        self.destination = destination
        self.toMany = toMany
        self.inverse = inverse
        self.keys = keys
        self.deleteRule = deleteRule
    }
}
