import BlockingBridge
import Foundation
import ImporterAWS
import ImporterCore

/// The synchronous `Store` surface over the store's async operations, and the one bridge it
/// crosses: `blocking`. The pipeline's writer thread, its reference checks and the commands call
/// the store from threads of their own, outside Swift concurrency's pool; each call here runs
/// its async operation in a task and waits for it (docs/library.md#threads-and-tasks). The
/// bridge is private to this file: no other part of the store blocks a thread. Async callers
/// (the library) await the operations themselves and block nothing.
extension DynamoDBStore {
    /// Starts `operation` in a task at once; `wait()` on what it returns blocks until the
    /// operation is done, so a caller can start more work (the next window of writes) first.
    private func startBlocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) -> BlockingTask<T> {
        BlockingTask(operation)
    }

    /// Runs `operation` and blocks the calling thread until it is done; its error rethrown.
    /// Only from a thread outside Swift concurrency's pool (debug builds check).
    @available(*, noasync, message: "await the async operation instead")
    private func blocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
        try startBlocking(operation).wait()
    }

    /// A run of the pipeline (`startRun(atomic:)`).
    package func beginRun(atomic: Bool) throws {
        try blocking { try await self.startRun(atomic: atomic) }
    }

    /// Hands the window's writes over and returns at once: the runner hands over the next
    /// window while the last requests of this one are out (`windowWrite`).
    package func startWrite(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) -> StartedWrite {
        let task = startBlocking(windowWrite(records, of: entity, rules: rules))
        return StartedWrite { try task.wait() }
    }

    /// `BatchWriting.writingGroups` (docs/documents.md#rejections): with `transactional: true`,
    /// what `body` writes waits in a transaction and is sent as one TransactWriteItems when it
    /// returns `.keep`, so its documents are written all or nothing; `.undo` sends nothing. A
    /// cancelled transaction throws `GroupNotApplied`. With `transactional: false` the writes go
    /// out as `body` makes them, and cannot be undone.
    package func writingGroups(_ body: () throws -> GroupCompletion) throws {
        guard options.transactional else {
            guard try body() == .keep else {
                throw StoreError(
                    .refused(type: "undo"),
                    "DynamoDB's BatchWriteItem writes each item for good: a document's writes cannot be undone",
                    operation: "write")
            }
            return
        }
        beginTransaction()
        let completion: GroupCompletion
        do {
            completion = try body()
        } catch {
            _ = endTransaction()
            throw error
        }
        guard let transaction = endTransaction(), completion == .keep else { return }
        try blocking { try await self.commitGroups(transaction) }
    }

    package func prepare(for model: Model) throws {
        try blocking { try await self.prepareTables(for: model) }
    }

    /// `prepareTablesToRead(_:)`, waited for.
    package func prepareToRead(_ model: Model) throws -> Bool {
        try blocking { try await self.prepareTablesToRead(model) }
    }

    package func delete(_ key: Value, expectedVersion: Int64, of entity: Entity) throws -> Bool {
        try blocking { try await self.deleteItem(key, expectedVersion: expectedVersion, of: entity) }
    }

    /// A key found before is answered at once, without a task.
    package func contains(_ key: Value, in entity: Entity) throws -> Bool {
        if !inTransaction && isKnown(key, in: entity) { return true }
        return try blocking { try await self.containsItem(key, in: entity) }
    }

    package func fetch(_ key: Value, of entity: Entity) throws -> [Value]? {
        try blocking { try await self.item(key, of: entity) }
    }

    /// `BatchFetching`: by BatchGetItem, a hundred keys a request.
    package func fetch(_ keys: [Value], of entity: Entity) throws -> [[Value]?] {
        try blocking { try await self.items(keys, of: entity) }
    }

    /// Inside a transaction, counts what it added and deleted too.
    package func count(of entity: Entity) throws -> Int {
        try blocking { try await self.itemCount(of: entity) }
    }

    /// Inside a transaction, the table's items as it changed them. Page by page: the items of a
    /// page are handed over while the next pages are fetched.
    package func scan(_ entity: Entity, _ body: ([Value]) throws -> Void) throws {
        let view = try TransactionView(self, entity)
        try forEachPage(of: pages(of: entity)) { try view.items(of: $0, body) }
        try view.itemsChanged(body)
    }

    /// The items that match `query` (`items(matching:of:)`), handed to `body`.
    package func items(matching query: ItemQuery, of entity: Entity, _ body: ([Value]) throws -> Void) throws {
        let view = try TransactionView(self, entity)
        let pages = try pages(of: entity, matching: query)
        try query.select(
            from: { candidate in
                try forEachPage(of: pages) { try view.items(of: $0, candidate) }
                try view.itemsChanged(candidate)
            }, of: entity, body)
    }

    /// What the meta table records of the model `name` (`DynamoDBTables.recorded(_:)`).
    package func recorded(model name: String) throws -> RecordedModel? {
        try blocking { [tables] in try await tables.recorded(name) }
    }

    /// `migrate(_:_:started:)`, waited for (docs/migration.md).
    package func migrate(_ plan: MigrationPlan, settings: MigrationSettings) throws -> MigrationResult {
        try blocking { try await self.migrate(plan, settings, started: Date()) }
    }

    /// Calls `body` with every page of `pages`, each waited for; stops the fetching at the end.
    private func forEachPage(of pages: any ItemPages, _ body: (DynamoDB.ItemsPage) throws -> Void) throws {
        defer { try? blocking { await pages.finish() } }
        while let page = try blocking({ try await pages.next() }) { try body(page) }
    }
}
