import ImporterFormats

/// Where an archive is read from: a local file, or a stream opened anew for each pass (an
/// object in S3; restore reads an archive twice: to verify it, then to load it).
package enum ArchiveInput: Sendable {
    case file(String)
    /// `name` stands for the archive in messages (`s3://bucket/key`).
    case stream(name: String, open: @Sendable () throws -> ByteSource)

    /// The path or name messages give.
    package var name: String {
        switch self {
        case .file(let path): path
        case .stream(let name, _): name
        }
    }
}
