/// Where a run reports its progress (`RunOptions.progress`), and how often: the library
/// itself never prints it (docs/library.md#warnings-and-progress).
package struct ProgressHandler: Sendable {
    /// Seconds between two reports at least; the first comes this long after reading starts.
    package var interval: Double
    /// Called on the thread that runs the pipeline, with the read stage waiting: keep it short.
    package var report: @Sendable (RunProgress) -> Void

    package init(every interval: Double = 1, _ report: @escaping @Sendable (RunProgress) -> Void) {
        self.interval = interval
        self.report = report
    }
}
