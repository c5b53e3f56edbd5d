import Dispatch
import Synchronization

/// The bridge from synchronous code (the `Store` protocol, the readers' byte sources, the
/// library's synchronous calls) into async code: runs `body` in a task and blocks the calling
/// thread until it is done.
///
/// Only from a thread that is not one of Swift concurrency's cooperative pool (the pipeline's
/// writer thread, the command's main thread, a Dispatch worker, `BlockingCallExecutor`'s
/// threads): blocking a pool thread could starve the very task it waits for. Debug builds
/// check that the caller is not a task, or is one on `BlockingCallExecutor`.
@available(*, noasync, message: "await the async call instead")
package func runBlocking<T: Sendable>(
    on executor: (any TaskExecutor)? = nil, _ body: @escaping @Sendable () async throws -> T
) throws -> T {
    try BlockingTask(on: executor, body).wait()
}

/// `runBlocking` in two steps: the task starts at once, and `wait()` blocks until it is done, so
/// the caller can start more (the next window of writes) before it waits. The same rule holds:
/// wait only from a thread outside Swift concurrency's pool.
package final class BlockingTask<T: Sendable>: Sendable {
    private let outcome = Mutex<Result<T, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Starts `body` at once; on `executor` when one is given (work that blocks a thread of its
    /// own, such as SQLite's), else on the cooperative pool.
    package init(on executor: (any TaskExecutor)? = nil, _ body: @escaping @Sendable () async throws -> T) {
        let started = Task(executorPreference: executor) {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            self.outcome.withLock { $0 = result }
            self.done.signal()
        }
        task.withLock { $0 = started }
    }

    /// Cancels the task (a download no one will read); `wait()` then gives what it ended with.
    package func cancel() {
        task.withLock { $0?.cancel() }
    }

    /// The task's result, once it is done; its error rethrown.
    @available(*, noasync, message: "await the async call instead")
    package func wait() throws -> T {
        assert(
            withUnsafeCurrentTask { $0 == nil } || BlockingCallExecutor.isCurrentThread,
            "a blocking wait on a task would hold a thread of the cooperative pool")
        done.wait()
        done.signal()  // a second wait returns at once
        return try outcome.withLock { $0! }.get()
    }
}
