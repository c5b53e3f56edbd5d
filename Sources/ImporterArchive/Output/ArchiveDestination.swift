/// Where an export writes its archive: a local file, or parts handed to an uploader as they
/// are ready (an S3 multipart upload), with no local copy.
package enum ArchiveDestination {
    case file(String)
    /// `name` stands for the archive in messages (`s3://bucket/key`).
    case parts(name: String, uploader: any ArchivePartUploader)

    /// The path or name messages give.
    package var name: String {
        switch self {
        case .file(let path): path
        case .parts(let name, _): name
        }
    }
}

/// Takes an archive in numbered parts (from 1, uploaded in any order), every part but the last
/// at least `PartedOutput.minimumPartSize` bytes; the archive appears only on `complete`.
/// Called from one thread at a time.
package protocol ArchivePartUploader: AnyObject {
    /// Uploads part `number` (it may return before the upload is done; failures are thrown
    /// by a later call).
    func upload(_ bytes: [UInt8], number: Int) throws
    /// Waits for every part and makes the archive appear, whole.
    func complete() throws
    /// Gives up: waits for the parts in flight and removes every uploaded part.
    func abort()
    /// The bytes of the parts handed over so far.
    var bytes: Int64 { get }
    /// Why `abort()` could not remove the parts, if it could not.
    var abortFailure: String? { get }
}
