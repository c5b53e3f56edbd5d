import Logging
import Synchronization

/// What a library logs through a `Logger` that a test gives it: every message, with its level
/// and label, at `.trace` and above.
public final class LogCapture: Sendable {
    public struct Entry: Sendable, Equatable {
        public var label: String
        public var level: Logger.Level
        public var message: String

        public init(label: String, level: Logger.Level, message: String) {
            (self.label, self.level, self.message) = (label, level, message)
        }
    }

    private let captured = Mutex<[Entry]>([])

    public init() {}

    /// A logger labelled `label` that records here (the process's `LoggingSystem` is not touched).
    public func logger(label: String = "test") -> Logger {
        Logger(label: label) { [self] label in Handler(label: label, capture: self) }
    }

    /// Every message so far, in order.
    public var entries: [Entry] { captured.withLock { $0 } }

    fileprivate func append(_ entry: Entry) { captured.withLock { $0.append(entry) } }

    private struct Handler: LogHandler {
        let label: String
        let capture: LogCapture
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.append(Entry(label: label, level: event.level, message: "\(event.message)"))
        }
    }
}
