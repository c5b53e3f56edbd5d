import Foundation
import Synchronization

/// A store opened for a model, for Swift programs (the surface of PoqSDK's CoreDataStore):
/// `items("Location")` gives that entity's `count`, `fetchAll`, `fetch`, `insert`, `update`,
/// `upsert`, `delete` and `deleteAll`.
///
/// Writes follow the same version rules as `importer run` (docs/writes.md): an insert gets version 1,
/// every change version + 1, and an item based on an older version is refused with
/// `ItemError.conflict`. Each call is one transaction: it is applied completely or not at all
/// (on DynamoDB one conditional TransactWriteItems, of at most 100 items). `transaction(_:)`
/// makes one transaction of several calls.
///
/// A store can be shared by many threads and tasks (it is `Sendable`; every call has an `async`
/// form). Its writes run one at a time, each whole. On a store with readers of its own
/// (`ConcurrentReading`: SQLite in WAL mode) reads run beside the writes and beside each other,
/// and see the last committed write; on others they wait for the write in progress. Either
/// way a read never sees half of another call's write.
///
/// Open one with `ItemStore(store:model:)` or `try await ItemStore.open(store:model:)`, in
/// the store's module (`ImporterSQLite`, `ImporterDynamoDB`).
///
/// ## Topics
/// - ``items(_:limit:)``
/// - ``transaction(_:)-81tr8``
/// - ``transaction(_:)-3amo8``
/// - ``ItemTransaction``
/// - ``EntityItems``
/// - ``TypedItems``
public final class ItemStore: Sendable {
    public let model: Model
    let store: Store
    /// Lets one call run at a time; not recursive: a call never makes another call of the store.
    private let calls: CallGate
    /// For the view a transaction hands its body: the transaction it belongs to.
    private let scope: TransactionScope?

    /// Opens `store` for `model`: creates missing tables, and refuses a store that holds
    /// another model or version (`StoreError`, `.modelMismatch`). Programs call the forms of
    /// the store modules (`ItemStore(store: SQLiteStore(…), model:)`).
    @available(*, noasync, message: "use `try await ItemStore.open(store:model:)`")
    package convenience init(store: any Store, model: Model) throws {
        try store.prepare(for: model)
        self.init(prepared: store, model: model)
    }

    /// `store`, already prepared for `model` (`StoreLifecycle.prepare(for:)`).
    package init(prepared store: any Store, model: Model) {
        self.store = store
        self.model = model
        calls = CallGate()
        scope = nil
    }

    /// The view of `owner` inside a transaction: its calls join the transaction.
    private init(viewOf owner: ItemStore, scope: TransactionScope) {
        store = owner.store
        model = owner.model
        calls = CallGate()
        self.scope = scope
    }

    /// `init(store:model:)` off the caller's thread: preparing a store reads (and may create)
    /// its tables. A store whose requests are async (`AsyncItemQuerying`: DynamoDB) is awaited.
    package static func open(store: any Store, model: Model) async throws -> ItemStore {
        guard let remote = store as? any AsyncItemQuerying else {
            return try await offload { try ItemStore(store: store, model: model) }
        }
        try await remote.prepareTables(for: model)
        return ItemStore(prepared: store, model: model)
    }

    /// The items of one entity; with `limit`, at most that many (`StorageLimit`).
    public func items(_ entityName: String, limit: StorageLimit? = nil) throws -> EntityItems {
        guard let entity = model.entity(named: entityName) else { throw ItemError.unknownEntity(entityName) }
        if let limit {
            guard entity.attribute(named: limit.attribute) != nil else {
                throw ItemError.unknownAttribute(entity: entityName, attribute: limit.attribute)
            }
            guard limit.count > 0 else {
                throw ItemError.invalid(
                    entity: entityName, field: nil, reason: .range,
                    message: "a storage limit of \(limit.count) items keeps none")
            }
        }
        return EntityItems(entity: entity, owner: self, limit: limit)
    }

    /// Runs `body` as one transaction: the writes of every call made through `transaction`
    /// are applied together when `body` returns, or none of them when it throws (on DynamoDB
    /// one conditional TransactWriteItems, of at most 100 items written or read). The calls see
    /// the transaction's own writes; other calls of the store wait until it ends.
    ///
    ///     try store.transaction { tx in
    ///         try tx.items("Location").insert(location)
    ///         try tx.items("Checkin").insert(checkin)  // names the new location
    ///     }
    ///
    /// Make the calls through `transaction`, not through the store, inside `body`.
    @available(*, noasync, message: "use the async form")
    public func transaction<T>(_ body: (ItemTransaction) throws -> T) throws -> T {
        if let scope { return try body(ItemTransaction(view: self, scope: scope)) }  // a view joins its transaction
        return try inTransaction {
            let scope = TransactionScope()
            defer { scope.end() }
            return try body(ItemTransaction(view: ItemStore(viewOf: self, scope: scope), scope: scope))
        }
    }

    /// `transaction(_:)` off the caller's thread.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (ItemTransaction) throws -> T) async throws -> T {
        try await offload { try self.transaction(body) }
    }

    public func close() {
        guard scope == nil else { return }  // a transaction's view closes nothing
        store.close()
    }

    /// Runs a read: inside a transaction on the store itself (it sees the transaction's writes),
    /// on a reader of its own when the store has them, else as `serialized`.
    func reading<T>(_ body: (any ItemQuerying) throws -> T) throws -> T {
        if scope == nil, let readers = store as? any ConcurrentReading { return try readers.withReader(body) }
        return try serialized { try body(store) }
    }

    /// Runs `body` while no other call of this store runs. A transaction's view runs it at once:
    /// its transaction holds the store.
    func serialized<T>(_ body: () throws -> T) throws -> T {
        if let scope {
            precondition(scope.isOpen, "an ItemTransaction was used after its transaction ended")
            return try body()
        }
        precondition(
            Self.callInProgress != ObjectIdentifier(self),
            "a call of an ItemStore inside its own transaction: make it through the transaction (tx.items(…))")
        calls.enterBlocking()
        defer { calls.leave() }
        return try Self.$callInProgress.withValue(ObjectIdentifier(self)) { try body() }
    }

    /// An async read: awaited (`read`) on a store whose requests are async, while no other call
    /// of this store runs; on others the synchronous `call`, on a Dispatch worker (`offload`).
    func reading<T: Sendable>(
        _ call: @escaping @Sendable () throws -> T, awaiting read: (any AsyncItemQuerying) async throws -> T
    ) async throws -> T {
        guard scope == nil, let remote = store as? any AsyncItemQuerying else { return try await offload(call) }
        precondition(
            Self.callInProgress != ObjectIdentifier(self),
            "a call of an ItemStore inside its own transaction: make it through the transaction (tx.items(…))")
        await calls.enter()
        defer { calls.leave() }
        return try await Self.$callInProgress.withValue(ObjectIdentifier(self)) { try await read(remote) }
    }

    /// Runs `body` as one transaction: committed if it returns, rolled back if it throws.
    func inTransaction<T>(_ body: () throws -> T) throws -> T {
        if scope != nil { return try serialized(body) }
        return try serialized { try store.withTransaction(body) }
    }

    /// The store whose call the current thread or task is making, to refuse a call from inside
    /// a transaction's body (it would wait for itself).
    @TaskLocal private static var callInProgress: ObjectIdentifier?
}

/// Whether a transaction is still open, for the view its body was handed.
final class TransactionScope: Sendable {
    private let open = Mutex(true)
    var isOpen: Bool { open.withLock { $0 } }
    func end() { open.withLock { $0 = false } }
}
