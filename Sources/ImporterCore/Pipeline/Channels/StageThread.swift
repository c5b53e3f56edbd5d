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

/// How a stage's thread is scheduled beside the run's others.
enum StagePriority {
    case normal
    /// A stage that works ahead of the next one (the part parsers): it gives way to the stages
    /// after it when they want the same cores, so that the run's slowest stage, mostly the
    /// write stage, is not kept waiting by work that would only wait for it later.
    case readingAhead

    /// How much nicer than the process a thread reading ahead is.
    private static let niceness: Int32 = 10

    /// Makes the calling thread `niceness` nicer than it is. Linux schedules each thread with
    /// a nice value of its own; in a process's own cgroup or session (a container, a CI job, a
    /// terminal) this orders the run's threads among themselves. Left as it is where it cannot
    /// be changed.
    static func lowerThisThread() {
        #if os(Linux)
            errno = 0
            let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            guard errno == 0 else { return }
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(current + niceness, 19))
        #endif
    }
}
