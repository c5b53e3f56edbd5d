import Foundation

/// A thread that owns one stage's state for as long as it runs, and gives back its result when joined.
///
/// The state is `sending`: the compiler checks that the thread starting the stage keeps no
/// reference to it, so "this thread only" is a fact of the types, not a comment.
package final class StageThread<Result>: Sendable {
    private let outcome = ConditionBox<Result?>(nil)

    /// Starts a thread named `name` that runs `body` on `state`, at `priority`.
    package init<State>(
        _ name: String, owning state: sending State, priority: StagePriority = .normal,
        _ body: @escaping @Sendable (inout State) -> Result
    ) {
        let handOver = ConditionBox<State?>(state)
        let thread = Thread { [outcome] in
            Self.nameThisThread(name)
            if priority == .readingAhead { StagePriority.lowerThisThread() }
            // The state ends with this closure, before `join` returns: what it holds (a
            // connection, a file) is closed by then.
            nonisolated(unsafe) let result = { () -> Result in
                var state = handOver.withLock { state in
                    nonisolated(unsafe) let taken = state.take()!  // the box is dropped: this thread owns it now
                    return taken
                }
                return body(&state)
            }()
            outcome.withLock { $0 = result }
        }
        thread.name = name
        thread.start()
    }

    /// Names the calling thread for the system too (`ps -L`, `top -H`, `perf`, `/proc`), which
    /// `Thread.name` does not: its first 15 bytes, Linux's limit. Left unnamed where it cannot be.
    private static func nameThisThread(_ name: String) {
        #if os(Linux)
            let file = open("/proc/thread-self/comm", O_WRONLY)
            guard file >= 0 else { return }
            defer { close(file) }
            let bytes = Array(name.utf8.prefix(15))
            _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        #endif
    }

    /// Waits until the thread is done, and takes what it returned.
    package func join() -> sending Result {
        outcome.wait(until: { $0 != nil }) { outcome in
            nonisolated(unsafe) let result = outcome.take()!
            return result
        }
    }
}
