import Synchronization

/// State that several threads reach, one at a time, under a lock: the store's connections
/// (the writer thread writes while the reading thread asks `contains`, docs/writes.md).
///
/// `@unchecked Sendable` is safe because `state` is reached only inside `withLock`, and
/// callers do not let it (or the connections and statements it owns) escape the closure.
/// The lock is Synchronization's `Mutex`, not recursive: a body never calls back into the
/// store that holds it (a scope that spans several calls, such as an export's read snapshot
/// or a library transaction, takes the lock to begin and again to end, not across its calls).
/// This is ImporterSQLite's only unchecked conformance.
final class Locked<State: AnyObject>: @unchecked Sendable {
    private let mutex = Mutex(())
    private let state: State

    init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the state, holding the lock.
    func withLock<R, Failure: Error>(_ body: (State) throws(Failure) -> R) throws(Failure) -> R {
        // The result leaves the lock through a local: `Mutex` hands back only `sending` results.
        var result: Result<R, Failure>?
        mutex.withLock { _ in result = Result { () throws(Failure) -> R in try body(state) } }
        return try result!.get()
    }
}
