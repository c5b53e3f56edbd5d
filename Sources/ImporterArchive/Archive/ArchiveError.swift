/// A failure to write or read an archive file (I/O, libarchive): names the file.
package struct ArchiveError: Error, CustomStringConvertible, Sendable {
    package let path: String
    package let message: String

    package init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    package var description: String { "\(path): \(message)" }
}
