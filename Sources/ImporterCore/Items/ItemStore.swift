import Foundation

/// A store opened for a model, for Swift programs (the surface of PoqSDK's CoreDataStore):
/// `items("Location")` gives that entity's `count`, `fetchAll`, `fetch`, `insert`, `update`,
/// `upsert`, `delete` and `deleteAll`.
///
/// Writes follow the same version rules as `importer run` (docs/writes.md): an insert gets version 1,
/// every change version + 1, and an item based on an older version is refused with
/// `ItemError.conflict`. Each call is one transaction: it is applied completely or not at all
/// (on DynamoDB one conditional TransactWriteItems, of at most 100 items).
///
/// A store can be shared by many threads and tasks (it is `Sendable`; every call has an `async`
/// form). Its writes run one at a time, each whole. On a store with readers of its own
/// (`ConcurrentReading`: SQLite in WAL mode) reads run beside the writes and beside each other,
/// and see the last committed write; on others they wait for the write in progress. Either
/// way a read never sees half of another call's write.
public final class ItemStore: Sendable {
    public let model: Model
    let store: Store
    /// Held for the whole of a call; recursive, as calls are made of calls.
    private let calls = NSRecursiveLock()

    /// Opens `store` for `model`: creates missing tables, and refuses a store that holds
    /// another model or version (`ConfigurationError`).
    public init(store: Store, model: Model) throws {
        self.store = store
        self.model = model
        try store.prepare(for: model)
    }

    /// The items of one entity; with `limit`, at most that many (`StorageLimit`).
    public func items(_ entityName: String, limit: StorageLimit? = nil) throws -> EntityItems {
        guard let entity = model.entity(named: entityName) else { throw ItemError.unknownEntity(entityName) }
        if let limit {
            guard entity.attribute(named: limit.attribute) != nil else {
                throw ItemError.unknownAttribute(entity: entityName, attribute: limit.attribute)
            }
            guard limit.count > 0 else {
                throw ItemError.invalid(entity: entityName, field: nil, reason: .range, message: "a storage limit of \(limit.count) items keeps none")
            }
        }
        return EntityItems(entity: entity, owner: self, limit: limit)
    }

    public func close() {
        store.close()
    }

    /// Runs a read: on a reader of its own when the store has them, else as `serialized`.
    func reading<T>(_ body: (any ItemReader) throws -> T) throws -> T {
        if let readers = store as? any ConcurrentReading { return try readers.withReader(body) }
        return try serialized { try body(store) }
    }

    /// Runs `body` while no other call of this store runs.
    func serialized<T>(_ body: () throws -> T) rethrows -> T {
        calls.lock()
        defer { calls.unlock() }
        return try body()
    }

    /// Runs `body` as one transaction: committed if it returns, rolled back if it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try serialized {
            try store.beginRun(atomic: true)
            defer { try? store.beginRun(atomic: false) }
            let result: T
            do {
                result = try body()
            } catch {
                try? store.finishRun(commit: false)
                throw error
            }
            try store.finishRun(commit: true)
            return result
        }
    }
}
