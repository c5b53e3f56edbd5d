import Foundation

/// The read stage's progress, handed to the run's `ProgressHandler` at most once per its
/// interval, and once more (`isFinal`) when reading ends; nothing without a handler.
final class Progress {
    private let handler: ProgressHandler?
    private let started = Date()
    private var lastReported = Date()
    private var last = RunProgress(input: "", records: 0, bytesRead: 0, totalBytes: 0, elapsed: 0)

    init(_ handler: ProgressHandler?) {
        self.handler = handler
    }

    /// Call often; reports at most once per interval.
    func update(input: String, records: Int, bytesRead: Int64, totalBytes: Int64) {
        guard let handler else { return }
        let now = Date()
        (last.input, last.records, last.bytesRead, last.totalBytes) = (input, records, bytesRead, totalBytes)
        guard now.timeIntervalSince(lastReported) >= handler.interval else { return }
        lastReported = now
        last.elapsed = now.timeIntervalSince(started)
        handler.report(last)
    }

    /// Reports the end of reading: `bytesRead` of all inputs' `totalBytes`.
    func finish(bytesRead: Int64, totalBytes: Int64) {
        guard let handler else { return }
        (last.bytesRead, last.totalBytes) = (bytesRead, totalBytes)
        last.elapsed = Date().timeIntervalSince(started)
        last.isFinal = true
        handler.report(last)
    }
}
