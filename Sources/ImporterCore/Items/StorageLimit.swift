/// At most `count` items of an entity (a cache of recent items, as CoreDataStore's limit): a
/// write that leaves more removes the oldest by `attribute` (lowest first, nulls before any
/// value, ties by key) in the same transaction, with the entity's delete rules. An item written
/// older than every kept one is removed at once.
public struct StorageLimit: Sendable, Equatable {
    public let count: Int
    public let attribute: String

    public init(count: Int, attribute: String) {
        self.count = count
        self.attribute = attribute
    }
}
