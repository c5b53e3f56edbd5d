import Dispatch
import Foundation
import ImporterCore

/// SIGINT and SIGTERM during a run (Ctrl-C, a Jenkins abort): the first asks the run to stop
/// (it finishes or rolls back the batch in flight and reports `interrupted`, exit 3); a second
/// ends the process at once, exit 3 (docs/reports.md#status). Once made, they keep this
/// meaning until the process ends: a signal while it exits does not kill it.
struct InterruptSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ interruption: RunInterruption) {
        sources = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { number, name in
            signal(number, SIG_IGN)  // delivered to the source below instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard interruption.interrupt("interrupted by \(name)") else {
                    FileHandle.standardError.write(Data("importer: \(name) again: stopping now\n".utf8))
                    _exit(3)
                }
                FileHandle.standardError.write(
                    Data("importer: \(name): stopping after the batch in flight (send it again to stop at once)\n".utf8)
                )
            }
            source.resume()
            return source
        }
    }
}
