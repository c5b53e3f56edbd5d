/// A DynamoDB export that does not match its own manifest: a data file missing, or with another
/// MD5 or item count than manifest-files.json says, or a manifest that cannot be read. Exit 4,
/// nothing written (docs/reports.md, docs/pipeline.md#s3-sources).
package struct ExportIntegrityError: Error, CustomStringConvertible, Sendable {
    /// The export folder (a path or `s3://bucket/prefix/AWSDynamoDB/<id>/`).
    package let export: String
    /// The file at fault: a data file's path or URL, or a manifest's.
    package let file: String
    package let message: String

    package init(export: String, file: String, _ message: String) {
        self.export = export
        self.file = file
        self.message = message
    }

    package var description: String {
        "\(file): \(message); the DynamoDB export \(export) is incomplete or was changed after DynamoDB wrote it, so nothing was written. Copy the whole export folder again (or export the table again)"
    }
}
