/// A store whose requests are async of themselves (DynamoDB's, over HTTP): `ItemStore`'s async
/// calls open it and read from it by awaiting these, so no thread waits on the network meanwhile
/// (docs/library.md#threads-and-tasks). What they read is what `ItemQuerying`'s reads would.
package protocol AsyncItemQuerying: AnyObject, Sendable {
    /// `StoreLifecycle.prepare(for:)`, awaited.
    func prepareTables(for model: Model) async throws

    /// How many items of `entity` are stored.
    func itemCount(of entity: Entity) async throws -> Int

    /// The stored item with `key` (values by attribute position), or nil.
    func item(_ key: Value, of entity: Entity) async throws -> [Value]?

    /// Every stored item of `entity`, in no particular order.
    func allItems(of entity: Entity) async throws -> [[Value]]

    /// The items of `entity` that match `query` (checked for the entity), in its order and up to its limit.
    func items(matching query: ItemQuery, of entity: Entity) async throws -> [[Value]]
}
