import Foundation

/// Progress while a run reads: a rewritten line on a terminal, a plain line every few seconds
/// otherwise (CI logs), nothing with `--quiet`.
final class Progress {
    private let quiet: Bool
    private let terminal: Bool
    private let interval: Double
    private let started = Date()
    private var lastPrinted = Date()
    private var printedOnTerminal = false

    init(quiet: Bool, terminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.quiet = quiet
        self.terminal = terminal
        self.interval = terminal ? 0.25 : 10
    }

    /// Call often; prints at most once per interval.
    func update(input: String, records: Int, bytesRead: Int64, totalBytes: Int64) {
        guard !quiet else { return }
        let now = Date()
        guard now.timeIntervalSince(lastPrinted) >= interval else { return }
        lastPrinted = now
        let elapsed = now.timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(records) / elapsed : 0
        let fraction = totalBytes > 0 ? min(1, Double(bytesRead) / Double(totalBytes)) : 0
        let eta = fraction > 0.01 ? elapsed * (1 - fraction) / fraction : nil
        var text = "\(input): \(records) records, \(Int(rate)) records/s, \(megabytes(bytesRead)) of \(megabytes(totalBytes)) MB (\(Int(fraction * 100))%)"
        if let eta { text += ", ETA \(Int(eta.rounded())) s" }
        if terminal {
            FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
            printedOnTerminal = true
        } else {
            FileHandle.standardError.write(Data("progress: \(text)\n".utf8))
        }
    }

    /// Clears the terminal line before the summary.
    func finish() {
        if printedOnTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    private func megabytes(_ bytes: Int64) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
}
