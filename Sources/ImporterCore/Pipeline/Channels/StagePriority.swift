import Foundation

/// How a stage's thread is scheduled beside the run's others.
package enum StagePriority {
    case normal
    /// A stage that works ahead of the next one (the part parsers): it gives way to the stages
    /// after it when they want the same cores, so that the run's slowest stage, mostly the
    /// write stage, is not kept waiting by work that would only wait for it later.
    case readingAhead

    /// How much nicer a thread reading ahead is than the thread that starts it.
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
