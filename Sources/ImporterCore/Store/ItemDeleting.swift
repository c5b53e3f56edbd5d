/// Deletes of single items, conditional on their version (sync's delete phase, the library API).
package protocol ItemDeleting: AnyObject, Sendable {
    /// Deletes the item with `key` if it is still at `expectedVersion`; false when it is gone or
    /// was changed meanwhile. Durable at the next `commit()`.
    func delete(_ key: Value, expectedVersion: Int64, of entity: Entity) throws -> Bool
}
