import BlockingBridge
import Foundation
@testable import ImporterAWS
import ImporterCore
import ImporterFormats
@testable import ImporterS3
import XCTest

/// The S3 client against moto's S3 (authentication on): listing with pages, ranged reads,
/// objects as byte sources for the readers, and errors that say what to check.
final class S3ClientTests: MotoTestCase {
    private var bucket = ""

    /// A bucket with `objects` (key → text), and a client of the server.
    private func makeBucket(_ objects: [String: String]) throws -> S3Client {
        let server = try server()
        bucket = try server.makeBucket("b", objects: objects.mapValues { Array($0.utf8) })
        return client(of: server)
    }

    private func client(of server: MotoServer, credentials: AWSCredentials? = nil) -> S3Client {
        S3Client(
            configuration: AWSResolvedConfiguration(
                credentials: credentials ?? server.credentials, region: "us-east-1", endpoint: server.endpoint),
            pathStyleEndpoint: server.endpoint, retry: RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxDelay: 0.05))
    }

    func testListingFollowsPagesAndReadsRangesOfAnObject() throws {
        try server().withAuthenticationOff(listPagesAndReadRanges)
    }

    private func listPagesAndReadRanges() throws {
        var objects: [String: String] = [:]
        for index in 0..<1005 { objects[String(format: "dumps/part-%04d.csv", index)] = "id\n\(index)\n" }
        objects["dumps/sub dir/ü b+c.csv"] = "id\nspecial\n"
        objects["other/x.csv"] = "id\n1\n"
        let client = try makeBucket(objects)
        let listed = try {
            let bucket = self.bucket; return try runBlocking { try await client.list(bucket: bucket, prefix: "dumps/") }
        }()
        XCTAssertEqual(listed.count, 1006, "more than one page of 1000")
        XCTAssertEqual(listed.map(\.location.key), objects.keys.filter { $0.hasPrefix("dumps/") }.sorted())
        let special = try XCTUnwrap(listed.first { $0.location.key.hasSuffix("ü b+c.csv") })
        XCTAssertEqual(special.size, 11)
        XCTAssertEqual(special.etag.count, 32, "an MD5 ETag without quotes")
        let middle = try runBlocking { try await client.read(special, range: 3..<10) }
        XCTAssertEqual(String(decoding: middle, as: UTF8.self), "special")
    }

    func testAnObjectReadInSmallChunksIsReadWhole() throws {
        let text = (0..<2000).map { "{\"id\":\"\($0)\",\"note\":\"línea \($0)\"}" }.joined(separator: "\n") + "\n"
        let client = try makeBucket(["data.ndjson": text])
        let object = try XCTUnwrap(
            {
                let bucket = self.bucket;
                return try runBlocking { try await client.list(bucket: bucket, prefix: "data") }
            }().first)
        let source = S3ObjectSource(client: client, object: object, chunkSize: 1000)
        let reader = ReaderFactory.makeReader(
            format: .ndjson, source: source, name: object.location.description, csv: CSVOptions())
        var ids: [String] = []
        while let record = try reader.next() {
            ids.append(record.values.first.map { "\($0)" } ?? "")
        }
        XCTAssertEqual(ids.count, 2000)
        XCTAssertEqual(source.bytesConsumed, Int64(text.utf8.count))
    }

    /// Through a proxy that breaks half the GetObject answers midway: every range is read
    /// whole, each broken transfer resumed at the byte it reached.
    func testBrokenTransfersResumeAtTheByteReached() throws {
        let text = (0..<20_000).map { "line \($0) of the object" }.joined(separator: "\n")
        let client = try makeBucket(["big.txt": text])
        let server = try server()
        let proxy = try FaultProxy(upstream: server.endpoint, rates: .init(cut: 0.5), operations: ["GetObject"])
        defer { proxy.stop() }
        let throughProxy = S3Client(
            configuration: AWSResolvedConfiguration(
                credentials: server.credentials, region: "us-east-1", endpoint: proxy.endpoint),
            pathStyleEndpoint: proxy.endpoint, retry: RetryPolicy(maxAttempts: 20, baseDelay: 0.001, maxDelay: 0.01))
        let bucket = bucket
        let object = try XCTUnwrap(runBlocking { try await client.list(bucket: bucket, prefix: "big") }.first)
        let source = S3ObjectSource(client: throughProxy, object: object, chunkSize: 50_000)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 10_000)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0.baseAddress!, count: $0.count) }
            if n == 0 { break }
            bytes += buffer[0..<n]
        }
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), text)
        let stats = try proxy.stats()
        XCTAssertGreaterThan(stats.cut, 2, "transfers were broken")
        XCTAssertTrue(
            stats.rangeStarts.contains { $0 % 50_000 != 0 },
            "a broken range resumes where it broke, not at its start: \(stats.rangeStarts)")
    }

    /// Multipart upload: parts uploaded out of order make one object; an aborted upload
    /// leaves no parts behind; a part under 5 MiB before the last is refused on completion.
    func testMultipartUploadsCompleteWholeOrLeaveNothing() throws {
        let client = try makeBucket([:])
        let bucket = bucket
        let first = Data((0..<(5 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }), last = Data("the end\n".utf8)
        let location = S3Location(bucket: bucket, key: "archive.tar")
        try runBlocking {
            let upload = try await client.startUpload(to: location)
            let second = try await client.upload(last, part: 2, of: upload)
            let one = try await client.upload(first, part: 1, of: upload)
            try await client.complete(upload, parts: [second, one])
        }
        let object = try XCTUnwrap(runBlocking { try await client.list(bucket: bucket, prefix: "archive") }.first)
        XCTAssertEqual(object.size, Int64(first.count + last.count))
        XCTAssertEqual(
            try runBlocking { try await client.read(object, range: Int64(first.count)..<object.size) }, Array(last))
        XCTAssertEqual(try runBlocking { try await client.read(object, range: 0..<4) }, Array(first.prefix(4)))

        try runBlocking {
            let upload = try await client.startUpload(to: S3Location(bucket: bucket, key: "abandoned.tar"))
            _ = try await client.upload(first, part: 1, of: upload)
            let open = try await client.unfinishedUploads(in: bucket)
            XCTAssertEqual(open, [upload.uploadId])
            try await client.abort(upload)
        }
        XCTAssertEqual(try runBlocking { try await client.unfinishedUploads(in: bucket) }, [])
        XCTAssertEqual(try runBlocking { try await client.list(bucket: bucket, prefix: "abandoned") }.count, 0)

        XCTAssertThrowsError(
            try runBlocking {
                let upload = try await client.startUpload(to: S3Location(bucket: bucket, key: "small.tar"))
                let a = try await client.upload(last, part: 1, of: upload),
                    b = try await client.upload(last, part: 2, of: upload)
                try await client.complete(upload, parts: [a, b])
            }
        ) { error in
            XCTAssertTrue("\(error)".contains("EntityTooSmall"), "\(error)")
        }
    }

    func testRefusalsNameTheObjectAndWhatToCheck() throws {
        let server = try server()
        let client = try makeBucket(["a.csv": "id\n1\n"])
        XCTAssertThrowsError(try runBlocking { try await client.list(bucket: "no-such-bucket-here", prefix: "") }) {
            error in
            let text = "\(error)"
            XCTAssertTrue(
                text.contains("s3://no-such-bucket-here/: ListObjectsV2 failed (HTTP 404, NoSuchBucket)"), text)
            XCTAssertTrue(text.contains("check the bucket name"), text)
        }
        let wrongSecret = self.client(
            of: server,
            credentials: AWSCredentials(accessKeyId: server.credentials.accessKeyId, secretAccessKey: "s3cr3t-XYZ"))
        XCTAssertThrowsError(
            try {
                let bucket = self.bucket;
                return try runBlocking { try await wrongSecret.list(bucket: bucket, prefix: "") }
            }()
        ) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("SignatureDoesNotMatch"), text)
            XCTAssertTrue(text.contains("check AWS_SECRET_ACCESS_KEY"), text)
            XCTAssertFalse(text.contains("s3cr3t-XYZ"), "no secret in messages: \(text)")
        }
        // The object changed after it was listed: its ETag no longer matches.
        let listed = try XCTUnwrap(
            {
                let bucket = self.bucket; return try runBlocking { try await client.list(bucket: bucket, prefix: "a") }
            }().first)
        let stale = S3Object(location: listed.location, size: listed.size, etag: String(repeating: "0", count: 32))
        XCTAssertThrowsError(try runBlocking { try await client.read(stale, range: 0..<5) }) { error in
            XCTAssertTrue("\(error)".contains("the object changed while it was read"), "\(error)")
        }
    }
}
