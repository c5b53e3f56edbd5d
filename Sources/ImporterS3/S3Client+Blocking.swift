import BlockingBridge
import Foundation

/// The client's calls for the pipeline's synchronous parts: the readers and the listing of
/// inputs, which run on threads of their own, and an export's archive writer. Each starts the
/// async call in a task and waits for it (docs/library.md#threads-and-tasks); this file is
/// where S3's synchronous and async code meet. Only from threads outside Swift concurrency's
/// pool (debug builds check).
extension S3Client {
    /// `list(bucket:prefix:)`, waited for.
    @available(*, noasync, message: "await list(bucket:prefix:)")
    package func listing(bucket: String, prefix: String) throws -> [S3Object] {
        try runBlocking { try await self.list(bucket: bucket, prefix: prefix) }
    }

    /// The bytes of `range` of `object`, downloading from now on; `wait()` on what it returns
    /// gives them, so a reader parses one range while the next downloads.
    package func startReading(_ object: S3Object, range: Range<Int64>) -> BlockingTask<[UInt8]> {
        BlockingTask { try await self.read(object, range: range) }
    }

    /// `startUpload(to:)`, waited for.
    @available(*, noasync, message: "await startUpload(to:)")
    package func startingUpload(to location: S3Location) throws -> MultipartUpload {
        try runBlocking { try await self.startUpload(to: location) }
    }

    /// Part `number` of `upload`, sending from now on; `wait()` on what it returns gives the
    /// uploaded part.
    package func startUploading(_ bytes: Data, part number: Int, of upload: MultipartUpload)
        -> BlockingTask<UploadedPart>
    {
        BlockingTask { try await self.upload(bytes, part: number, of: upload) }
    }

    /// `complete(_:parts:)`, waited for.
    @available(*, noasync, message: "await complete(_:parts:)")
    package func completing(_ upload: MultipartUpload, parts: [UploadedPart]) throws {
        try runBlocking { try await self.complete(upload, parts: parts) }
    }

    /// `abort(_:)`, waited for.
    @available(*, noasync, message: "await abort(_:)")
    package func aborting(_ upload: MultipartUpload) throws {
        try runBlocking { try await self.abort(upload) }
    }
}
