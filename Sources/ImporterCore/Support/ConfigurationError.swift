/// A problem in a model file, a pipeline file or the command line: nothing is written.
///
/// The message names the file, the line and the key at fault, and says what to do.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let line: Int?
    public let key: String?
    public let message: String

    public init(file: String, line: Int? = nil, key: String? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let key { location += ": '\(key)'" }
        return "\(location): \(message)"
    }
}
