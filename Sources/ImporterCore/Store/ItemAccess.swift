/// What `ItemStore`'s calls do to a store, all awaited (docs/library.md#threads-and-tasks). A
/// store whose requests are async of themselves (DynamoDB's, over HTTP) awaits them and holds no
/// thread meanwhile; a store whose calls block (SQLite's) names an executor of threads of its
/// own, `callExecutor`, and `ItemStore` runs its calls there, off Swift concurrency's pool.
///
/// Reads on the store itself see the writes of its open transaction.
package protocol ItemAccess: ItemReadAccess {
    /// Where `ItemStore` runs the store's calls: nil for a store that never blocks a thread.
    var callExecutor: (any TaskExecutor)? { get }

    /// Reads that run beside the writes and beside each other and see the last commit (SQLite
    /// in WAL mode, on readers of their own); nil when reads wait for the write in progress.
    var concurrentReads: (any ItemReadAccess)? { get }

    /// `StoreLifecycle.prepare(for:)`: creates missing tables and checks the recorded model.
    func prepareTables(for model: Model) async throws

    /// The stored items of `entity` that `include` keeps, read item by item, so that only those
    /// are held (a delete plan's dependants among a large table's items).
    func items(of entity: Entity, where include: @Sendable ([Value]) -> Bool) async throws -> [[Value]]

    /// Writes `records` as `rules` decide (`BatchWriting.write`), inside the open transaction.
    func writeItems(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) async throws
        -> [WriteOutcome]

    /// Deletes the item with `key` if it is at `expectedVersion`; false when it is gone or changed.
    func deleteItem(_ key: Value, expectedVersion: Int64, of entity: Entity) async throws -> Bool

    /// Opens the library's transaction (docs/library.md#transactions), which is the store's own,
    /// not a pipeline run: SQLite's `BEGIN IMMEDIATE`; DynamoDB keeps the changes in memory.
    /// One at a time, never nested: `ItemStore` serializes its calls.
    func beginItemTransaction() async throws

    /// Ends the open transaction: with `commit`, its writes and deletes applied together (on
    /// DynamoDB one conditional TransactWriteItems), or else none of them. A failed commit
    /// leaves nothing applied.
    func endItemTransaction(commit: Bool) async throws
}

/// The reads `ItemStore`'s calls make, awaited.
package protocol ItemReadAccess: AnyObject, Sendable {
    /// How many items of `entity` are stored.
    func itemCount(of entity: Entity) async throws -> Int

    /// The stored item with `key` (values by attribute position), or nil.
    func item(_ key: Value, of entity: Entity) async throws -> [Value]?

    /// Every stored item of `entity`, in no particular order.
    func allItems(of entity: Entity) async throws -> [[Value]]

    /// The items of `entity` that match `query` (checked for the entity), in its order and up to its limit.
    func items(matching query: ItemQuery, of entity: Entity) async throws -> [[Value]]
}
