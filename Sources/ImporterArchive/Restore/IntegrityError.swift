/// The archive does not match its own manifest, or holds something restore refuses (an unsafe
/// path, a link, an unlisted entry): exit 4, nothing written (docs/reports.md, docs/archives.md).
package struct IntegrityError: Error, CustomStringConvertible, Sendable {
    package let archive: String
    package let message: String

    init(_ archive: String, _ message: String) {
        self.archive = archive
        self.message = message
    }

    package var description: String {
        "\(archive): \(message); the archive is damaged or was changed after export, so nothing was written. Restore an intact copy"
    }
}
