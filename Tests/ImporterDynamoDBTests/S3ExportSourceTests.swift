import Foundation
import TestSupport
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// `format: dynamodb-export` on `s3://bucket/prefix/AWSDynamoDB/<id>/` in moto's S3 (signature
/// checks on, except while the importer lists the folder: moto checks a signature against the
/// decoded URL, `prefix=a/b/` for `prefix=a%2Fb%2F`, see `withAuthenticationOff`), into SQLite
/// and into a DynamoDB table in moto (docs/pipeline.md#s3-sources).
final class S3ExportSourceTests: MotoTestCase {
    private let fixture = DynamoDBExportFixture(dataFiles: TestModels.orderExportFiles)

    /// A bucket holding the export as AWS writes it; `edit` changes its manifest lines.
    private func exportBucket(edit: (Int, inout DynamoDBExportFixture.ManifestLine) -> Void = { _, _ in }) throws
        -> String
    {
        try server().makeBucket("exports", objects: try fixture.objects(edit: edit))
    }

    private func pipeline(_ out: String, bucket: String, destination: String) throws -> String {
        try TestModels.orders.write(toFile: out + "/model.yaml", atomically: false, encoding: .utf8)
        let file = out + "/pipeline.yaml"
        try """
        model: model.yaml
        sources:
          - { entity: Order, path: "s3://\(bucket)/\(fixture.folderKey)", format: dynamodb-export }
        destination: \(destination)
        write: { transactional: false }
        report: { directory: reports }
        """.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    private func environment() throws -> [String: String] {
        var environment = ImporterBinary.environment(try server())
        environment["AWS_ENDPOINT_URL_S3"] = try server().endpoint.absoluteString
        return environment
    }

    func testAnExportInS3LoadsIntoSQLiteWithRejectsNamingTheObjectAndLine() throws {
        let bucket = try exportBucket()
        let out = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let file = try pipeline(out, bucket: bucket, destination: "{ type: sqlite, path: store.sqlite }")
        let environment = try environment()
        let run = try server().withAuthenticationOff {
            try ImporterBinary.run(["run", file, "--quiet"], environment: environment)
        }
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                out + "/store.sqlite", "SELECT orderId, amount, hex(receipt), tags FROM \"Order\" ORDER BY 1"),
            """
            o-1|12345678901234567890.123456789|000102FAFF|{"SS":["gift","rush"]}
            o-2|-0.1||{"L":[{"S":"a"},{"N":"1.50"}]}
            o-3|100||{"M":{"k":{"S":"v"}}}
            """)
        let rejects = try ImporterProcess.rejects(in: out + "/reports")
        XCTAssertEqual(
            rejects.map { "\($0.string("source") ?? "") \($0.int("line")) \($0.string("field") ?? "")" },
            ["s3://\(bucket)/\(fixture.folderKey)data/i9j0k1l2m3n4o5p6.json.gz 2 details"])
        let report = try ImporterBinary.report(out + "/reports")
        XCTAssertEqual(report.number("totals", "read"), 4)
        XCTAssertEqual(report.number("totals", "inserted"), 3)
    }

    func testAnExportInS3LoadsIntoADynamoDBTable() throws {
        let bucket = try exportBucket()
        let out = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let prefix = "export-\(UUID().uuidString.prefix(6).lowercased())-"
        let file = try pipeline(
            out, bucket: bucket, destination: "{ type: dynamodb, tablePrefix: \"\(prefix)\", createTables: true }")
        let environment = try environment()
        let run = try server().withAuthenticationOff {
            try ImporterBinary.run(["run", file, "--quiet"], environment: environment)
        }
        XCTAssertEqual(run.status, 1, run.output)
        let scan = try client().sendJSON("Scan", json(["TableName": prefix + "Order"]))
        var items: [String: NSDictionary] = [:]
        for item in scan["Items"] as? [[String: Any]] ?? [] {
            items[(item["orderId"] as? [String: String])?["S"] ?? ""] = item as NSDictionary
        }
        XCTAssertEqual(items.keys.sorted(), ["o-1", "o-2", "o-3"])
        XCTAssertEqual(
            items["o-1"],
            [
                "orderId": ["S": "o-1"], "amount": ["N": "12345678901234567890.123456789"], "quantity": ["N": "3"],
                "receipt": ["B": "AAEC+v8="], "tags": ["S": #"{"SS":["gift","rush"]}"#], "paid": ["BOOL": true],
                "version": ["N": "1"],
            ] as NSDictionary)
    }

    func testAWrongChecksumInS3IsAnIntegrityErrorAndNothingIsWritten() throws {
        let bucket = try exportBucket { index, line in
            if index == 0 { line.md5Checksum = "AAAAAAAAAAAAAAAAAAAAAA==" }
        }
        let out = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let file = try pipeline(out, bucket: bucket, destination: "{ type: sqlite, path: store.sqlite }")
        let environment = try environment()
        let run = try server().withAuthenticationOff {
            try ImporterBinary.run(["run", file, "--quiet"], environment: environment)
        }
        XCTAssertEqual(run.status, 4, run.output)
        XCTAssertTrue(
            run.output.contains(
                "s3://\(bucket)/\(fixture.folderKey)data/a1b2c3d4e5f6g7h8.json.gz: the MD5 of the file is "), run.output
        )
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/store.sqlite"))
    }
}
