import ImporterAWS
import ImporterCore

/// Runs `body` for every index of `0..<count` with at most `limit` running at once (a task
/// group topped up as children finish; no thread per call); returns the results in index order.
/// The first error cancels the rest and is rethrown.
func concurrentMap<T: Sendable>(_ count: Int, limit: Int, _ body: @escaping @Sendable (Int) async throws -> T)
    async throws -> [T]
{
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

/// Runs `body` for every index of `0..<count`, each as soon as one of `slots` is free, started
/// in index order and only once `previous` has finished (the call before has started all of
/// its own); finishes `started` when every index is started. Calls chained so share the slots
/// and start their work in the order they were made. The first error is rethrown once every
/// index is started; the rest are cancelled.
func orderedMap<T: Sendable>(
    _ count: Int, slots: TaskSlots, after previous: AsyncStream<Void>?,
    started: AsyncStream<Void>.Continuation,
    _ body: @escaping @Sendable (Int) async throws -> T
) async throws -> [T] {
    defer { started.finish() }
    if let previous { for await _ in previous {} }
    return try await withThrowingTaskGroup(of: (Int, T).self) { group in
        for index in 0..<count {
            await slots.acquire()
            group.addTask {
                defer { slots.release() }
                return (index, try await body(index))
            }
        }
        started.finish()
        var results = [T?](repeating: nil, count: count)
        while let (index, result) = try await group.next() { results[index] = result }
        return results.map { $0! }
    }
}
