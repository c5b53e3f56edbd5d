import ImporterCore

/// The bridge from synchronous code (the `Store` protocol, the readers' byte sources) into the async clients: runs `body` in a
/// task and blocks the calling thread until it is done.
///
/// Call it only from a thread that is not one of Swift concurrency's cooperative pool (the
/// pipeline's writer thread, the command's main thread): blocking a pool thread could starve
/// the very task it waits for.
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    try BlockingTask(body).wait()
}

/// `runBlocking` in two steps: the task starts at once, and `wait()` blocks until it is done, so
/// the caller can start more (the next window of writes) before it waits. The same rule holds:
/// wait only from a thread outside Swift concurrency's pool.
public final class BlockingTask<T: Sendable>: Sendable {
    private let outcome = ConditionBox<Result<T, any Error>?>(nil)

    public init(_ body: @escaping @Sendable () async throws -> T) {
        Task { [outcome] in
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
        }
    }

    /// The task's result, once it is done; its error rethrown.
    public func wait() throws -> T {
        try outcome.wait(until: { $0 != nil }) { $0! }.get()
    }
}
