import BlockingBridge
import Foundation
import ImporterCore
import TestSupport
import XCTest
@testable import ImporterAWS
@testable import ImporterS3

/// `importer export --out s3://…` (docs/archives.md) against moto's S3: the archive goes up as a
/// multipart upload while it is written, restores whole from S3, and an export that fails in
/// the middle leaves no upload open and no object. (Keys have no `/`: moto checks the
/// signature of a listing by such a prefix against the decoded URL.)
final class S3ExportTests: MotoTestCase {
    private var directory = ""
    private var bucket = ""

    override func setUpWithError() throws {
        directory = try ImporterBinary.temporaryDirectory()
        bucket = try server().makeBucket("backups")
        // ~15 MB of Checkins: an uncompressed archive of two parts (the first is 8 MiB).
        let checkins = TestPipelines.checkins(60_000) { "visit \($0) " + String(repeating: "long comment ", count: 10) }
        try checkins.write(toFile: directory + "/checkins.ndjson", atomically: false, encoding: .utf8)
        let yaml = """
            name: s3-backup
            model: \(TestPipelines.sample.path)/Model/v1.yaml
            sources:
              - { entity: Location, path: \(TestPipelines.sample.path)/locations.csv, format: csv }
              - { entity: Checkin, path: \(directory)/checkins.ndjson, format: ndjson }
            destination: { type: sqlite, path: "${OUT_DIR}/store.sqlite" }
            report: { directory: "${OUT_DIR}/reports" }
            """
        try yaml.write(toFile: directory + "/pipeline.yaml", atomically: false, encoding: .utf8)
        let run = try ImporterBinary.run(
            ["run", directory + "/pipeline.yaml", "--quiet"], environment: ["OUT_DIR": directory + "/source"])
        XCTAssertEqual(run.status, 0, run.output)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testAnArchiveIsUploadedInPartsAndRestoresWhole() throws {
        let server = try server()
        for name in ["nightly.tar", "nightly.tar.zst"] {
            let export = try importer(
                ["export", directory + "/pipeline.yaml", "--out", "s3://\(bucket)/\(name)"], endpoint: server.endpoint)
            XCTAssertEqual(export.status, 0, export.output)
            XCTAssertTrue(export.output.contains("exported to s3://\(bucket)/\(name)"), export.output)
        }
        let client = client(of: server)
        let bucket = bucket
        let objects = try runBlocking { try await client.list(bucket: bucket, prefix: "nightly") }
        XCTAssertEqual(objects.map(\.location.key), ["nightly.tar", "nightly.tar.zst"])
        XCTAssertGreaterThan(objects[0].size, 10 << 20)
        XCTAssertTrue(objects[0].etag.hasSuffix("-2"), "a multipart object of two parts: \(objects[0].etag)")
        XCTAssertEqual(try runBlocking { try await client.unfinishedUploads(in: bucket) }, [])
        let zip = try importer(
            ["export", directory + "/pipeline.yaml", "--out", "s3://\(bucket)/nightly.zip"], endpoint: server.endpoint)
        XCTAssertEqual(zip.status, 2, "a .zip cannot be uploaded as it is written: \(zip.output)")
        XCTAssertTrue(zip.output.contains(".tar.zst"), zip.output)

        for name in ["nightly.tar", "nightly.tar.zst"] {
            let target = directory + "/restored-" + name
            var environment = environment(server.endpoint)
            environment["OUT_DIR"] = target
            let restore = try ImporterBinary.run(
                ["restore", "s3://\(bucket)/\(name)", directory + "/pipeline.yaml", "--quiet"],
                environment: environment)
            XCTAssertEqual(restore.status, 0, restore.output)
            for table in [#""AWS-Locations""#, "Checkin"] {
                XCTAssertEqual(
                    try ImporterProcess.sqlite(target + "/store.sqlite", "SELECT * FROM \(table) ORDER BY 1"),
                    try ImporterProcess.sqlite(directory + "/source/store.sqlite", "SELECT * FROM \(table) ORDER BY 1"),
                    "\(name) \(table)")
            }
        }
    }

    func testAFailedUploadIsAbortedAndLeavesNothing() throws {
        let server = try server()
        let proxy = try FaultProxy(upstream: server.endpoint, rates: .init(denyPart: 2), operations: [])
        defer { proxy.stop() }
        let export = try importer(
            ["export", directory + "/pipeline.yaml", "--out", "s3://\(bucket)/nightly.tar"], endpoint: proxy.endpoint)
        XCTAssertEqual(export.status, 3, export.output)
        XCTAssertTrue(export.output.contains("AccessDenied"), export.output)
        XCTAssertTrue(export.output.contains("s3://\(bucket)/nightly.tar"), export.output)
        XCTAssertTrue(
            export.output.contains("s3:PutObject") && export.output.contains("s3:AbortMultipartUpload"),
            "an upload's refusal names the permissions an upload needs: \(export.output)")
        XCTAssertFalse(export.output.contains("s3:GetObject"), export.output)
        XCTAssertEqual(try proxy.stats().deniedParts, 1)
        let client = client(of: server)
        let bucket = bucket
        XCTAssertEqual(try runBlocking { try await client.unfinishedUploads(in: bucket) }, [], "the upload was aborted")
        XCTAssertEqual(try runBlocking { try await client.list(bucket: bucket, prefix: "nightly") }, [])
    }

    private func importer(_ arguments: [String], endpoint: URL) throws -> (status: Int32, output: String) {
        var environment = environment(endpoint)
        environment["OUT_DIR"] = directory + "/source"
        return try ImporterBinary.run(arguments, environment: environment)
    }

    private func environment(_ endpoint: URL) -> [String: String] {
        var environment = ImporterBinary.environment((try? server())!)
        environment["AWS_ENDPOINT_URL_S3"] = endpoint.absoluteString
        return environment
    }

    private func client(of server: MotoServer) -> S3Client {
        S3Client(
            configuration: AWSResolvedConfiguration(
                credentials: server.credentials, region: "us-east-1", endpoint: server.endpoint),
            pathStyleEndpoint: server.endpoint)
    }
}
