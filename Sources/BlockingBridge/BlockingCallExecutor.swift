import Foundation
import Synchronization

/// Threads for async code that blocks (SQLite's calls): a task that prefers this executor runs
/// on threads of its own, never on Swift concurrency's cooperative pool, so waiting on a file
/// lock or a disk holds none of the pool's few threads (docs/library.md#threads-and-tasks).
///
/// A job never waits for a thread: when none is idle, a new one starts (as many as jobs ever
/// ran at once; idle ones wait for the next). Dispatch's queues would not do: on Linux their
/// worker threads are shared with the cooperative pool, and blocked ones are replaced late.
package final class BlockingCallExecutor: TaskExecutor {
    /// The one executor the stores' blocking calls share.
    package static let shared = BlockingCallExecutor()

    private struct State {
        var jobs: [UnownedJob] = []
        var idle = 0
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private static let threadKey = "importer.blocking-call"

    private init() {}

    /// Whether the calling thread is one of the executor's: a task running there may block it.
    package static var isCurrentThread: Bool { Thread.current.threadDictionary[threadKey] != nil }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let wakeIdle = state.withLock { state in
            state.jobs.append(job)
            guard state.idle > 0 else { return false }
            state.idle -= 1
            return true
        }
        if wakeIdle {
            wake.signal()
        } else {
            let thread = Thread { [self] in work() }
            thread.name = Self.threadKey
            thread.start()
        }
    }

    /// Runs jobs as they come; waits, idle, when there are none.
    private func work() {
        Thread.current.threadDictionary[Self.threadKey] = true
        while true {
            let job = state.withLock { state -> UnownedJob? in
                guard !state.jobs.isEmpty else {
                    state.idle += 1
                    return nil
                }
                return state.jobs.removeFirst()  // a few at most: each job gets a thread
            }
            guard let job else {
                wake.wait()
                continue
            }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
