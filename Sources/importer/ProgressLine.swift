import Foundation
import ImporterCore
import Synchronization

/// Draws a run's progress on stderr: a line rewritten 4 times a second on a terminal, a plain
/// `progress:` line every 10 s otherwise (CI logs); cleared from the terminal when reading ends,
/// before the summary. `--quiet` gives the run no handler at all.
final class ProgressLine: Sendable {
    private let terminal: Bool
    /// Whether a line is on the terminal, to clear.
    private let drawn = Mutex(false)

    init(terminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.terminal = terminal
    }

    /// The run's handler, drawing here.
    var handler: ProgressHandler {
        ProgressHandler(every: terminal ? 0.25 : 10) { [self] in draw($0) }
    }

    func draw(_ progress: RunProgress) {
        if progress.isFinal {
            if drawn.withLock({ $0 }) { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            return
        }
        var text =
            "\(progress.input): \(progress.records) records, \(Int(progress.recordsPerSecond)) records/s, "
            + "\(megabytes(progress.bytesRead)) of \(megabytes(progress.totalBytes)) MB (\(Int(progress.fraction * 100))%)"
        if let eta = progress.secondsLeft { text += ", ETA \(Int(eta.rounded())) s" }
        if terminal {
            FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
            drawn.withLock { $0 = true }
        } else {
            FileHandle.standardError.write(Data("progress: \(text)\n".utf8))
        }
    }

    private func megabytes(_ bytes: Int64) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
}
