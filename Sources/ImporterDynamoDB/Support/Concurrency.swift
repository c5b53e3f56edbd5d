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
