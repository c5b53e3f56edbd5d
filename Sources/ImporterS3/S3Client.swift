import Foundation
import ImporterAWS
import ImporterCore

/// An object as ListObjectsV2 lists it.
package struct S3Object: Sendable, Equatable {
    package let location: S3Location
    package let size: Int64
    /// The entity tag, without its quotes: what identifies this content of the object.
    package let etag: String
}

/// S3's REST API for what the importer needs (docs/pipeline.md#s3-sources): listing a prefix and reading ranges of
/// an object, SigV4-signed, retried with backoff like the DynamoDB client (`RetryPolicy`).
/// With an endpoint (moto, MinIO) requests are path-style (`endpoint/bucket/key`), else
/// virtual-hosted (`https://bucket.s3.region.amazonaws.com/key`).
package final class S3Client: Sendable {
    private let signer: SigV4Signer
    private let endpoint: URL?
    private let region: String
    private let retry: RetryPolicy
    private let transport: HTTPTransport
    /// Takes the credentials and the endpoint's secrets out of every error's text.
    let redactor: SecretRedactor

    /// `endpoint` nil means AWS's own S3 for `configuration.region`.
    package init(
        configuration: AWSResolvedConfiguration, pathStyleEndpoint endpoint: URL?, retry: RetryPolicy = RetryPolicy(),
        connections: Int = 4, timeout: Double = 30
    ) {
        signer = SigV4Signer(
            credentials: configuration.credentials, region: configuration.region, service: AWSService.s3.signingName)
        redactor = SecretRedactor(credentials: configuration.credentials, endpoint: endpoint ?? configuration.endpoint)
        self.endpoint = endpoint
        region = configuration.region
        self.retry = retry
        transport = HTTPTransport(limit: connections, timeout: timeout)
    }

    /// Every object whose key starts with `prefix`, in key order (ListObjectsV2, page by page).
    package func list(bucket: String, prefix: String) async throws -> [S3Object] {
        var objects: [S3Object] = []
        var token: String?
        let location = S3Location(bucket: bucket, key: prefix).description
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let response = try await send(
                "GET", url(bucket: bucket, key: nil, query: query), operation: "ListObjectsV2",
                location: location)
            let page = try XMLElementNode.parse(Array(response.body), file: location)
            for contents in page.children(named: "Contents") {
                guard let key = contents.childText("Key"), let size = contents.childText("Size").flatMap(Int64.init)
                else { continue }
                objects.append(
                    S3Object(
                        location: S3Location(bucket: bucket, key: key), size: size,
                        etag: Self.unquoted(contents.childText("ETag") ?? "")))
            }
            token = page.childText("IsTruncated") == "true" ? page.childText("NextContinuationToken") : nil
        } while token != nil
        return objects
    }

    /// Bytes `range` of an object whose ETag must still be `etag`. A transfer that breaks
    /// resumes at the byte it reached (a Range request for the rest), with backoff.
    package func read(_ object: S3Object, range: Range<Int64>) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(range.count))
        try await retrying(operation: "GetObject", location: object.location.description) {
            let start = range.lowerBound + Int64(bytes.count)
            if start < range.upperBound { try await stream(object, from: start, to: range.upperBound, into: &bytes) }
        }
        return bytes
    }

    /// Appends bytes `start..<end` of `object` to `bytes` as they arrive.
    private func stream(_ object: S3Object, from start: Int64, to end: Int64, into bytes: inout [UInt8]) async throws {
        let url = url(bucket: object.location.bucket, key: object.location.key, query: [])
        let headers = signed(
            "GET", url, extra: [("Range", "bytes=\(start)-\(end - 1)"), ("If-Match", "\"\(object.etag)\"")])
        let before = bytes.count
        try await transport.stream("GET", url, headers: headers) { response in
            guard response.status == 206 || response.status == 200 else {
                let body = try await response.body.collect(upTo: 1 << 20)
                throw S3Error(
                    operation: "GetObject", location: object.location.description,
                    response: HTTPResponse(
                        status: response.status, errorType: nil, body: Data(body.readableBytesView),
                        headers: response.headers),
                    redactor: redactor)
            }
            for try await buffer in response.body { bytes.append(contentsOf: buffer.readableBytesView) }
        }
        let received = bytes.count - before
        guard Int64(received) == end - start else {
            throw S3Error(
                operation: "GetObject", location: object.location.description, status: 206, code: nil,
                message: "the transfer ended after \(received) of \(end - start) bytes")
        }
    }

    /// Sends a request with retries for throttling, server errors and broken connections; a
    /// body is signed with its SHA-256, as S3 requires.
    func send(_ method: String, _ url: URL, body: Data? = nil, operation: String, location: String) async throws
        -> HTTPResponse
    {
        let headers = signed(method, url, extra: [], payload: body.map { Array($0) } ?? [])
        return try await retrying(operation: operation, location: location) {
            let response = try await transport.send(method, url, headers: headers, body: body)
            guard (200..<300).contains(response.status) else {
                throw S3Error(operation: operation, location: location, response: response, redactor: redactor)
            }
            return response
        }
    }

    /// Runs `body` until it succeeds, backing off between attempts (`RetryPolicy`); an S3
    /// refusal that another attempt cannot change is thrown at once. A transport failure left
    /// when attempts run out becomes an `S3Error` whose text went through `redactor`.
    private func retrying<T>(operation: String, location: String, _ body: () async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch let error as S3Error where !error.isRetryable {
                throw error
            } catch {
                guard try await retry.backOff(after: &attempt, counting: nil, entity: "") else {
                    if error is S3Error { throw error }
                    throw S3Error(
                        operation: operation, location: location, status: nil, code: nil,
                        message:
                            "no response from \(endpoint.map(SecretRedactor.display) ?? "S3"): \(redactor.redact("\(error)"))"
                    )
                }
            }
        }
    }

    private func signed(
        _ method: String, _ url: URL, extra: [(name: String, value: String)],
        payload: [UInt8] = []
    ) -> [(name: String, value: String)] {
        let hash = payload.isEmpty ? Self.emptyPayloadHash : SHA256.hex(of: payload)
        return signer.sign(
            method: method, url: url, headers: extra + [("x-amz-content-sha256", hash)], body: payload, date: Date())
    }

    /// Path-style with an endpoint, virtual-hosted without; the key encoded segment by segment.
    func url(bucket: String, key: String?, query: [(String, String)]) -> URL {
        let encode = SigV4Signer.uriEncode
        let segments = key.map { $0.split(separator: "/", omittingEmptySubsequences: false).map { encode(String($0)) } }
        let path = segments.map { "/" + $0.joined(separator: "/") } ?? "/"
        let queryText =
            query.isEmpty ? "" : "?" + query.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        if let endpoint {
            let base =
                endpoint.absoluteString.hasSuffix("/")
                ? String(endpoint.absoluteString.dropLast()) : endpoint.absoluteString
            return URL(string: base + "/" + SigV4Signer.uriEncode(bucket) + (key == nil ? "" : path) + queryText)!
        }
        let domain = region.hasPrefix("cn-") ? "amazonaws.com.cn" : "amazonaws.com"
        return URL(string: "https://\(bucket).s3.\(region).\(domain)\(path)\(queryText)")!
    }

    static let emptyPayloadHash = SHA256.hex(of: [])

    static func unquoted(_ etag: String) -> String {
        etag.count >= 2 && etag.hasPrefix("\"") && etag.hasSuffix("\"") ? String(etag.dropFirst().dropLast()) : etag
    }
}
