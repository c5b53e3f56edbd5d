import ImporterAWS
import ImporterCore

/// Runs `body` for every index of `0..<count` with at most `limit` running at once (a task
/// group topped up as children finish; no thread per call); returns the results in index order.
/// The first error cancels the rest and is rethrown.
func concurrentMap<T: Sendable>(_ count: Int, limit: Int, _ body: @escaping @Sendable (Int) async throws -> T) async throws -> [T] {
    try await withThrowingTaskGroup(of: (Int, T).self) { group in
        var results = [T?](repeating: nil, count: count)
        var next = 0
        func start() {
            let index = next
            group.addTask { (index, try await body(index)) }
            next += 1
        }
        while next < min(max(1, limit), count) { start() }
        while let (index, result) = try await group.next() {
            results[index] = result
            if next < count { start() }
        }
        return results.map { $0! }
    }
}

/// The one bridge from the synchronous `Store` protocol into the async client: runs `body` in a
/// task and blocks the calling thread until it is done.
///
/// Call it only from a thread that is not one of Swift concurrency's cooperative pool (the
/// pipeline's writer thread, the command's main thread): blocking a pool thread could starve
/// the very task it waits for.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = ConditionBox<Result<T, any Error>?>(nil)
    Task {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
    }
    return try outcome.wait(until: { $0 != nil }) { $0! }.get()
}
