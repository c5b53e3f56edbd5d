import BlockingBridge
import ImporterCore

/// The library's calls on SQLite (`ItemStore`, docs/library.md#threads-and-tasks): the store's
/// synchronous calls, run by `ItemStore` on threads of their own (`callExecutor`), never on
/// Swift concurrency's pool. Reads outside a transaction go to readers of their own.
extension SQLiteStore: ItemAccess {
    package var callExecutor: (any TaskExecutor)? { BlockingCallExecutor.shared }

    package var concurrentReads: (any ItemReadAccess)? { SQLiteReaders(store: self) }

    package func prepareTables(for model: Model) async throws { try prepare(for: model) }

    package func itemCount(of entity: Entity) async throws -> Int { try count(of: entity) }

    package func item(_ key: Value, of entity: Entity) async throws -> [Value]? { try fetch(key, of: entity) }

    package func allItems(of entity: Entity) async throws -> [[Value]] { try Self.allItems(of: entity, in: self) }

    package func items(of entity: Entity, where include: @Sendable ([Value]) -> Bool) async throws -> [[Value]] {
        var items: [[Value]] = []
        try scan(entity) { if include($0) { items.append($0) } }
        return items
    }

    package func items(matching query: ItemQuery, of entity: Entity) async throws -> [[Value]] {
        try Self.items(matching: query, of: entity, in: self)
    }

    package func writeItems(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) async throws
        -> [WriteOutcome]
    {
        try write(records, of: entity, rules: rules)
    }

    package func deleteItem(_ key: Value, expectedVersion: Int64, of entity: Entity) async throws -> Bool {
        try delete(key, expectedVersion: expectedVersion, of: entity)
    }

    /// `BEGIN IMMEDIATE` on the writing connection, whose writes and reads are then the
    /// transaction's until it ends. The connection's lock is taken to begin and to end it, not
    /// across the calls in between, which take it themselves; `ItemStore` lets no other call of
    /// the store run meanwhile.
    package func beginItemTransaction() async throws {
        try withConnection { try $0.beginItemTransaction() }
    }

    package func endItemTransaction(commit: Bool) async throws {
        try withConnection { try $0.endItemTransaction(commit: commit) }
    }

    static func allItems(of entity: Entity, in reader: any ItemQuerying) throws -> [[Value]] {
        var items: [[Value]] = []
        try reader.scan(entity) { items.append($0) }
        return items
    }

    static func items(matching query: ItemQuery, of entity: Entity, in reader: any ItemQuerying) throws -> [[Value]] {
        var items: [[Value]] = []
        try reader.items(matching: query, of: entity) { items.append($0) }
        return items
    }
}

/// Reads on the store's readers (`SQLiteStore.withReader`): each sees the last commit, and runs
/// beside the writing connection's transaction.
private final class SQLiteReaders: ItemReadAccess {
    let store: SQLiteStore

    init(store: SQLiteStore) { self.store = store }

    func itemCount(of entity: Entity) async throws -> Int { try store.withReader { try $0.count(of: entity) } }

    func item(_ key: Value, of entity: Entity) async throws -> [Value]? {
        try store.withReader { try $0.fetch(key, of: entity) }
    }

    func allItems(of entity: Entity) async throws -> [[Value]] {
        try store.withReader { try SQLiteStore.allItems(of: entity, in: $0) }
    }

    func items(matching query: ItemQuery, of entity: Entity) async throws -> [[Value]] {
        try store.withReader { try SQLiteStore.items(matching: query, of: entity, in: $0) }
    }
}
