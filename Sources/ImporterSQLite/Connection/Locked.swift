import Foundation

/// State that several threads reach, one at a time, under a lock: the store's connections
/// (the writer thread writes while the reading thread asks `contains`, docs/writes.md).
///
/// `@unchecked Sendable` is safe because `state` is reached only inside `withLock`, and
/// callers do not let it (or the connections and statements it owns) escape the closure.
/// The lock is recursive: a body may call back into the store on the same thread (an export's
/// `readingSnapshot` runs `scanRows`). This is ImporterSQLite's only unchecked conformance.
final class Locked<State: AnyObject>: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private let state: State

    init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the state, holding the lock. (The state is an object, not `inout`: a
    /// body that calls back in on the same thread must not find it under exclusive access.)
    func withLock<Result>(_ body: (State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(state)
    }
}
