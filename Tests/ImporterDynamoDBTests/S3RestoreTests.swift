import Foundation
import ImporterCore
import TestSupport
import XCTest
@testable import ImporterAWS

/// `importer restore s3://…` (docs/archives.md) against moto's S3: the archive is streamed from the
/// object twice (verified, then loaded), and a damaged one is refused with nothing written.
final class S3RestoreTests: MotoTestCase {
    func testAnArchiveInS3IsVerifiedThenRestoredAndADamagedOneIsRefused() throws {
        let out = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let source = out + "/source", target = out + "/target"
        XCTAssertEqual(
            try ImporterProcess.run(["run", "Pipelines/locations.yaml", "--quiet"], environment: ["OUT_DIR": source])
                .status, 0)
        for kind in ["tar.zst", "tar"] {
            let export = try ImporterProcess.run(
                ["export", "Pipelines/locations.yaml", "--out", "\(out)/backup.\(kind)"],
                environment: ["OUT_DIR": source])
            XCTAssertEqual(export.status, 0, export.stderr)
        }
        let bucket = try server().makeBucket(
            "backups",
            objects: ["backup.tar.zst": Array(try Data(contentsOf: URL(fileURLWithPath: out + "/backup.tar.zst")))])
        // A byte of Location data flipped: its SHA-256 no longer matches the manifest.
        var damaged = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/backup.tar")))
        let at = try XCTUnwrap(damaged.firstRange(of: Array("loc-00250".utf8))).lowerBound
        damaged[at + 4] = UInt8(ascii: "X")
        try server().putObject(damaged, bucket: bucket, key: "damaged.tar")

        var environment = ImporterBinary.environment(try server())
        environment["AWS_ENDPOINT_URL_S3"] = try server().endpoint.absoluteString
        environment["OUT_DIR"] = target
        let refused = try ImporterBinary.run(
            ["restore", "s3://\(bucket)/damaged.tar", "Pipelines/locations.yaml", "--quiet"], environment: environment)
        XCTAssertEqual(refused.status, 4, refused.output)
        XCTAssertTrue(refused.output.contains("s3://\(bucket)/damaged.tar"), refused.output)
        XCTAssertTrue(refused.output.contains("SHA-256"), refused.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target + "/locations.sqlite"), "nothing is written")

        let restored = try ImporterBinary.run(
            ["restore", "s3://\(bucket)/backup.tar.zst", "Pipelines/locations.yaml", "--quiet"],
            environment: environment)
        XCTAssertEqual(restored.status, 0, restored.output)
        for table in [#""AWS-Locations""#, "Checkin"] {
            XCTAssertEqual(
                try ImporterProcess.sqlite(target + "/locations.sqlite", "SELECT * FROM \(table) ORDER BY 1"),
                try ImporterProcess.sqlite(source + "/locations.sqlite", "SELECT * FROM \(table) ORDER BY 1"), table)
        }
        let missing = try ImporterBinary.run(
            ["restore", "s3://\(bucket)/nothing.tar", "Pipelines/locations.yaml", "--quiet"], environment: environment)
        XCTAssertEqual(missing.status, 2, missing.output)
        XCTAssertTrue(missing.output.contains("NoSuchKey"), missing.output)
    }
}
