import Foundation
import ImporterCore

/// S3's multipart upload (docs/archives.md, for archives written to S3): parts of at least 5 MiB
/// (the last may be smaller), uploaded in any order, then completed into one object, or
/// aborted so that no parts are left behind (and billed).
extension S3Client {
    /// A started upload: where it goes and S3's id for it.
    package struct MultipartUpload: Sendable {
        package let location: S3Location
        package let uploadId: String
    }

    /// A part as uploaded: its number and the ETag S3 gave it.
    package struct UploadedPart: Sendable {
        package let number: Int
        package let etag: String
    }

    /// CreateMultipartUpload.
    package func startUpload(to location: S3Location) async throws -> MultipartUpload {
        let response = try await send(
            "POST", url(bucket: location.bucket, key: location.key, query: [("uploads", "")]),
            operation: "CreateMultipartUpload", location: location.description)
        let result = try XMLElementNode.parse(Array(response.body), file: location.description)
        guard let uploadId = result.childText("UploadId"), !uploadId.isEmpty else {
            throw S3Error(
                operation: "CreateMultipartUpload", location: location.description, status: response.status,
                code: nil, message: "the answer names no UploadId")
        }
        return MultipartUpload(location: location, uploadId: uploadId)
    }

    /// UploadPart: part `number` (1…10000) of `upload`.
    package func upload(_ bytes: Data, part number: Int, of upload: MultipartUpload) async throws -> UploadedPart {
        let location = upload.location
        let response = try await send(
            "PUT",
            url(
                bucket: location.bucket, key: location.key,
                query: [("partNumber", String(number)), ("uploadId", upload.uploadId)]),
            body: bytes, operation: "UploadPart", location: location.description)
        return UploadedPart(number: number, etag: response.headers["etag"] ?? "")
    }

    /// CompleteMultipartUpload with `parts` (in any order): the object appears whole, or not at
    /// all. S3 may answer 200 with an error in the body; that is an error too.
    package func complete(_ upload: MultipartUpload, parts: [UploadedPart]) async throws {
        let location = upload.location
        let list = parts.sorted { $0.number < $1.number }.map {
            "<Part><PartNumber>\($0.number)</PartNumber><ETag>\(XMLText.escaped($0.etag))</ETag></Part>"
        }.joined()
        let body = Data("<CompleteMultipartUpload>\(list)</CompleteMultipartUpload>".utf8)
        let response = try await send(
            "POST", url(bucket: location.bucket, key: location.key, query: [("uploadId", upload.uploadId)]),
            body: body, operation: "CompleteMultipartUpload", location: location.description)
        let result = try XMLElementNode.parse(Array(response.body), file: location.description)
        if result.name == "Error" {
            throw S3Error(
                operation: "CompleteMultipartUpload", location: location.description, response: response,
                redactor: redactor)
        }
    }

    /// AbortMultipartUpload: the parts uploaded so far are deleted.
    package func abort(_ upload: MultipartUpload) async throws {
        let location = upload.location
        _ = try await send(
            "DELETE", url(bucket: location.bucket, key: location.key, query: [("uploadId", upload.uploadId)]),
            operation: "AbortMultipartUpload", location: location.description)
    }

    /// The uploads of `bucket` started and neither completed nor aborted (ListMultipartUploads).
    package func unfinishedUploads(in bucket: String) async throws -> [String] {
        let response = try await send(
            "GET", url(bucket: bucket, key: nil, query: [("uploads", "")]),
            operation: "ListMultipartUploads", location: S3Location(bucket: bucket, key: "").description)
        let result = try XMLElementNode.parse(Array(response.body), file: bucket)
        return result.children(named: "Upload").compactMap { $0.childText("UploadId") }
    }
}
