import BlockingBridge

/// The synchronous forms of opening a store and of its transaction, and what every synchronous
/// call goes through (`waiting`): the async call, run in a task that the calling thread waits
/// for (docs/library.md#threads-and-tasks). Here the library's synchronous and async code meet.
extension ItemStore {
    /// Opens `store` for `model`: creates missing tables, and refuses a store that holds
    /// another model or version (`StoreError`, `.modelMismatch`). Programs call the forms of
    /// the store modules (`ItemStore(store: SQLiteStore(…), model:)`).
    @available(*, noasync, message: "use `try await ItemStore.open(store:model:)`")
    package convenience init(store: any Store & ItemAccess, model: Model) throws {
        try runBlocking(on: store.callExecutor) { try await store.prepareTables(for: model) }
        self.init(prepared: store, model: model)
    }

    /// `transaction(_:)` for code outside async contexts: `body` runs on the calling thread,
    /// and its calls wait for the store.
    @available(*, noasync, message: "use the async form")
    public func transaction<T>(_ body: (ItemTransaction) throws -> T) throws -> T {
        if let scope { return try body(ItemTransaction(view: self, scope: scope)) }  // a view joins its transaction
        precondition(Self.callInProgress != ObjectIdentifier(self), Self.nestedCall)
        calls.enterBlocking()
        defer { calls.leave() }
        try runBlocking(on: access.callExecutor) { try await self.access.beginItemTransaction() }
        let scope = TransactionScope()
        let result: T
        do {
            result = try Self.$callInProgress.withValue(ObjectIdentifier(self)) {
                try body(ItemTransaction(view: ItemStore(viewOf: self, scope: scope), scope: scope))
            }
        } catch {
            scope.end()
            try? runBlocking(on: access.callExecutor) { try await self.access.endItemTransaction(commit: false) }
            throw error
        }
        scope.end()
        try runBlocking(on: access.callExecutor) { try await self.access.endItemTransaction(commit: true) }
        return result
    }

    /// Runs the async `call` and waits for it, with the calling thread blocked: the synchronous
    /// form of every call (docs/library.md#threads-and-tasks). A call that waits for its turn
    /// (every call but a `read` on readers of their own) is refused inside a transaction's body.
    @available(*, noasync, message: "await the async form")
    func waiting<T: Sendable>(read: Bool = false, _ call: @escaping @Sendable () async throws -> T) throws -> T {
        if scope == nil && !(read && access.concurrentReads != nil) {
            precondition(Self.callInProgress != ObjectIdentifier(self), Self.nestedCall)
        }
        return try runBlocking(on: access.callExecutor, call)
    }
}
