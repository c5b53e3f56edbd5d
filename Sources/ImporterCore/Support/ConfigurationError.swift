/// A problem in a model file, a pipeline file or the command line: nothing is written.
///
/// The message names the file, the line and the key at fault, and says what to do.
package struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    package let file: String
    package let line: Int?
    package let key: String?
    package let message: String

    package init(file: String, line: Int? = nil, key: String? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    package var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let key { location += ": '\(key)'" }
        return "\(location): \(message)"
    }
}
