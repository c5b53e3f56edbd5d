import Foundation

/// Runs `body(0..<count)` on up to `workers` threads (the calling one included), for blocking
/// work such as HTTP requests; returns when every index is done. The first error thrown is
/// rethrown once all workers have stopped; indices not yet started are then skipped.
func parallelForEach(_ count: Int, workers: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
    let state = ParallelState(count: count)
    let threads = max(1, min(workers, count))
    let finished = DispatchSemaphore(value: 0)
    for _ in 1..<threads {
        let thread = Thread {
            state.work(body)
            finished.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    state.work(body)
    for _ in 1..<threads { finished.wait() }
    if let error = state.error { throw error }
}

private final class ParallelState: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private var next = 0
    private(set) var error: Error?

    init(count: Int) { self.count = count }

    func work(_ body: (Int) throws -> Void) {
        while let index = take() {
            do {
                try body(index)
            } catch {
                lock.lock()
                if self.error == nil { self.error = error }
                lock.unlock()
            }
        }
    }

    private func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard error == nil, next < count else { return nil }
        next += 1
        return next - 1
    }
}
