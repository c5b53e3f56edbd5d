import Foundation

/// A thread that owns one stage's state for as long as it runs, and gives it back when joined.
///
/// The state is `sending`: the compiler checks that the thread starting the stage keeps no
/// reference to it, so "this thread only" is a fact of the types, not a comment.
final class StageThread<Result>: Sendable {
    private let outcome = ConditionBox<Result?>(nil)

    /// Starts a thread named `name` that runs `body` on `state`, at `priority`.
    init<State>(
        _ name: String, owning state: sending State, priority: StagePriority = .normal,
        _ body: @escaping @Sendable (inout State) -> Result
    ) {
        let handOver = ConditionBox<State?>(state)
        let thread = Thread { [outcome] in
            if priority == .readingAhead { StagePriority.lowerThisThread() }
            var state = handOver.withLock { state in
                nonisolated(unsafe) let taken = state.take()!  // the box is dropped: this thread owns it now
                return taken
            }
            nonisolated(unsafe) let result = body(&state)
            outcome.withLock { $0 = result }
        }
        thread.name = name
        thread.start()
    }

    /// Waits until the thread is done, and takes what it returned.
    func join() -> sending Result {
        outcome.wait(until: { $0 != nil }) { outcome in
            nonisolated(unsafe) let result = outcome.take()!
            return result
        }
    }
}
