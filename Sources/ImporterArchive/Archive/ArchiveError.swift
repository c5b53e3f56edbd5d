/// A failure to write or read an archive file (I/O, libarchive): names the file.
public struct ArchiveError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let message: String

    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
