/// The library's transaction (docs/library.md#transactions): what `ItemStore` makes of each
/// call, and of `ItemStore.transaction(_:)`. It is the store's own, not a pipeline run: no
/// checkpoint, run record or bulk path takes part.
package protocol ItemTransacting: AnyObject, Sendable {
    /// Runs `body` as one transaction: the writes and deletes it makes on this store are applied
    /// together when it returns, and none of them when it throws (its error is rethrown). Reads
    /// it makes on this store see its writes. SQLite holds the write lock from `BEGIN IMMEDIATE`
    /// to its COMMIT or ROLLBACK; DynamoDB keeps the changes in memory and sends them as one
    /// conditional TransactWriteItems when `body` returns.
    ///
    /// One at a time, never nested, and not during a pipeline run: the caller (`ItemStore`)
    /// serializes its calls.
    func withTransaction<T>(_ body: () throws -> T) throws -> T
}
