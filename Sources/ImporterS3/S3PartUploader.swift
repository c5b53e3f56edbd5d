import BlockingBridge
import Foundation
import ImporterAWS
import ImporterCore

/// An object written part by part as a multipart upload (docs/archives.md: archives exported to S3):
/// the upload starts with the first part, at most `inFlight` parts are sent at once while the
/// caller produces the next, and the object appears only on `complete()`. After a failure,
/// `abort()` waits for the parts in flight and aborts the upload, so no parts are left behind.
///
/// Used from one thread at a time, never one of Swift concurrency's pool: it waits for the
/// uploads (`S3Client+Blocking`).
package final class S3PartUploader {
    package let location: S3Location
    private let client: S3Client
    private let inFlight: Int
    private var upload: S3Client.MultipartUpload?
    private var sending: [BlockingTask<S3Client.UploadedPart>] = []
    private var uploaded: [S3Client.UploadedPart] = []
    /// The bytes of every part handed over so far.
    package private(set) var bytes: Int64 = 0
    /// Why `abort()` could not abort the upload (it stays open, and billed, until a bucket
    /// lifecycle rule or `aws s3api abort-multipart-upload` removes it).
    package private(set) var abortFailure: String?

    init(client: S3Client, location: S3Location, inFlight: Int = 2) {
        self.client = client
        self.location = location
        self.inFlight = inFlight
    }

    /// Sends part `number` (from 1) in the background; waits while `inFlight` parts are being
    /// sent, and throws the failure of an earlier part.
    package func upload(_ part: [UInt8], number: Int) throws {
        let upload = try started()
        while sending.count >= inFlight { try waitForOldest() }
        sending.append(client.startUploading(Data(part), part: number, of: upload))
        bytes += Int64(part.count)
    }

    /// Waits for every part and completes the upload: the object appears, whole.
    package func complete() throws {
        let upload = try started()
        while !sending.isEmpty { try waitForOldest() }
        try client.completing(upload, parts: uploaded)
        self.upload = nil
    }

    /// Waits for the parts in flight (ignoring their failures) and aborts the upload.
    package func abort() {
        for task in sending { _ = try? task.wait() }
        sending = []
        guard let upload else { return }
        self.upload = nil
        do {
            try client.aborting(upload)
        } catch {
            abortFailure = "the upload \(upload.uploadId) to \(location) could not be aborted: \(error)"
        }
    }

    private func started() throws -> S3Client.MultipartUpload {
        if let upload { return upload }
        let started = try client.startingUpload(to: location)
        upload = started
        return started
    }

    private func waitForOldest() throws {
        let task = sending.removeFirst()
        uploaded.append(try task.wait())
    }
}
