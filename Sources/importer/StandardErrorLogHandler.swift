import Foundation
import Logging

/// How the command shows what the library logs (docs/library.md#warnings-and-progress): one
/// line `importer: <message>` on stderr per message at `.info` and above, as the command always
/// printed them; the level and the metadata are not shown. Bootstrapped once, in `Importer.main`.
struct StandardErrorLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    init(label: String) {}

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        FileHandle.standardError.write(Data("importer: \(event.message)\n".utf8))
    }
}
