import Foundation

/// State that threads share, reachable only under a lock, with waits for a condition on it:
/// the one place of the pipeline where threads meet. Channels and stage threads are built on it.
///
/// `@unchecked Sendable` is safe here: `state` is private and read or written only inside
/// `withLock` / `wait(until:)`, with `condition` held. Values move in and out as `sending`,
/// so the compiler checks that a thread handing one over keeps no reference to it.
package final class ConditionBox<State>: @unchecked Sendable {
    private let condition = NSCondition()
    private var state: State

    package init(_ state: sending State) { self.state = state }

    /// Runs `body` on the state with the lock held, then wakes every waiting thread.
    package func withLock<Result>(_ body: (inout State) throws -> sending Result) rethrows -> sending Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&state)
    }

    /// Waits until `ready` holds for the state, then runs `body` on it with the lock held.
    package func wait<Result>(until ready: (State) -> Bool, _ body: (inout State) throws -> sending Result) rethrows
        -> sending Result
    {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while !ready(state) { condition.wait() }
        return try body(&state)
    }
}
