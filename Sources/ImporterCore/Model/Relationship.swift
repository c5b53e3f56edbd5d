/// What happens to dependants when an item is deleted.
public enum DeleteRule: String, Sendable {
    case nullify, cascade, deny
}

/// A to-one or to-many relationship between two entities.
///
/// A to-one relationship names the attribute (`key`) that holds the destination's hash key;
/// a to-many relationship is the inverse of a to-one.
public struct Relationship: Sendable {
    public let name: String
    public let destination: String
    public let toMany: Bool
    public let inverse: String?
    /// The attribute holding the destination's hash key (to-one only).
    public let key: String?
    public let deleteRule: DeleteRule
}
