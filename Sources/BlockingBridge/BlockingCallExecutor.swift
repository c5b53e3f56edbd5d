import Dispatch

/// Threads for async code that blocks (SQLite's calls): a task that prefers this executor runs
/// on Dispatch workers, never on Swift concurrency's cooperative pool, so waiting on a file
/// lock or a disk holds none of the pool's few threads (docs/library.md#threads-and-tasks).
package final class BlockingCallExecutor: TaskExecutor {
    /// The one executor the stores' blocking calls share.
    package static let shared = BlockingCallExecutor()

    private let queue: DispatchQueue
    private static let marker = DispatchSpecificKey<Bool>()

    private init() {
        queue = DispatchQueue(label: "importer.blocking-calls", attributes: .concurrent)
        queue.setSpecific(key: Self.marker, value: true)
    }

    /// Whether the calling thread is one of the executor's: a task running there may block it.
    package static var isCurrentThread: Bool { DispatchQueue.getSpecific(key: marker) ?? false }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
