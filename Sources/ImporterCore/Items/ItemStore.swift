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
/// - ``transaction(_:)-43a7j``
/// - ``ItemTransaction``
/// - ``EntityItems``
/// - ``TypedItems``
public final class ItemStore: Sendable {
    public let model: Model
    let store: any Store
    /// What the calls do to the store, awaited.
    let access: any ItemAccess
    /// Lets one call run at a time; not recursive: a call never makes another call of the store.
    let calls: CallGate
    /// For the view a transaction hands its body: the transaction it belongs to.
    let scope: TransactionScope?

    /// `store`, already prepared for `model` (`StoreLifecycle.prepare(for:)`).
    package init(prepared store: any Store & ItemAccess, model: Model) {
        self.store = store
        access = store
        self.model = model
        calls = CallGate()
        scope = nil
    }

    /// The view of `owner` inside a transaction: its calls join the transaction.
    init(viewOf owner: ItemStore, scope: TransactionScope) {
        store = owner.store
        access = owner.access
        model = owner.model
        calls = CallGate()
        self.scope = scope
    }

    /// `init(store:model:)`, awaited: preparing a store reads (and may create) its tables.
    package static func open(store: any Store & ItemAccess, model: Model) async throws -> ItemStore {
        try await withTaskExecutorPreference(store.callExecutor) { try await store.prepareTables(for: model) }
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
    ///     try await store.transaction { tx in
    ///         try await tx.items("Location").insert(location)
    ///         try await tx.items("Checkin").insert(checkin)  // names the new location
    ///     }
    ///
    /// Make the calls through `transaction`, not through the store, inside `body`.
    public func transaction<T>(_ body: (ItemTransaction) async throws -> T) async throws -> T {
        try await inTransaction { _ in
            // A view joins its transaction.
            if let scope { return try await body(ItemTransaction(view: self, scope: scope)) }
            let scope = TransactionScope()
            defer { scope.end() }
            return try await body(ItemTransaction(view: ItemStore(viewOf: self, scope: scope), scope: scope))
        }
    }

    public func close() {
        guard scope == nil else { return }  // a transaction's view closes nothing
        store.close()
    }

    /// Runs a read: inside a transaction on the store itself (it sees the transaction's writes),
    /// on the store's readers when it has them (beside the writes), else as `serialized`.
    func reading<T>(_ read: (any ItemReadAccess) async throws -> T) async throws -> T {
        if scope == nil, let readers = access.concurrentReads {
            return try await withTaskExecutorPreference(access.callExecutor) { try await read(readers) }
        }
        return try await serialized { try await read(access) }
    }

    /// Runs `body` as one transaction: committed if it returns, rolled back if it throws. A
    /// transaction's view runs it in the open transaction.
    func inTransaction<T>(_ body: (any ItemAccess) async throws -> T) async throws -> T {
        if scope != nil { return try await serialized { try await body(access) } }
        return try await serialized {
            try await access.beginItemTransaction()
            let result: T
            do {
                result = try await body(access)
            } catch {
                try? await access.endItemTransaction(commit: false)
                throw error
            }
            try await access.endItemTransaction(commit: true)
            return result
        }
    }

    /// Runs `body` on the store's executor while no other call of this store runs. A
    /// transaction's view runs it at once: its transaction holds the store.
    private func serialized<T>(_ body: () async throws -> T) async throws -> T {
        if let scope {
            precondition(scope.isOpen, "an ItemTransaction was used after its transaction ended")
            return try await withTaskExecutorPreference(access.callExecutor, operation: body)
        }
        precondition(Self.callInProgress != ObjectIdentifier(self), Self.nestedCall)
        await calls.enter()
        defer { calls.leave() }
        return try await Self.$callInProgress.withValue(ObjectIdentifier(self)) {
            try await withTaskExecutorPreference(access.callExecutor, operation: body)
        }
    }

    static let nestedCall =
        "a call of an ItemStore inside its own transaction: make it through the transaction (tx.items(…))"

    /// The store whose call the current thread or task is making, to refuse a call from inside
    /// a transaction's body (it would wait for itself).
    @TaskLocal static var callInProgress: ObjectIdentifier?
}

/// Whether a transaction is still open, for the view its body was handed.
final class TransactionScope: Sendable {
    private let open = Mutex(true)
    var isOpen: Bool { open.withLock { $0 } }
    func end() { open.withLock { $0 = false } }
}
