import ImporterCore

/// The bridge from synchronous code (the `Store` protocol, the readers' byte sources) into the async clients: runs `body` in a
/// task and blocks the calling thread until it is done.
///
/// Call it only from a thread that is not one of Swift concurrency's cooperative pool (the
/// pipeline's writer thread, the command's main thread): blocking a pool thread could starve
/// the very task it waits for.
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = ConditionBox<Result<T, any Error>?>(nil)
    Task {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
    }
    return try outcome.wait(until: { $0 != nil }) { $0! }.get()
}
