import Foundation
import TestSupport
import XCTest

/// `format: dynamodb-export` from a local folder in AWS's layout into SQLite (docs/pipeline.md#dynamodb-exports): values
/// typed exactly, every data file checked against the manifest before anything is written.
final class DynamoDBExportTests: XCTestCase {
    var directory = ""
    let fixture = DynamoDBExportFixture(dataFiles: TestModels.orderExportFiles)

    override func setUp() {
        directory = ImporterProcess.temporaryDirectory()
        try! TestModels.orders.write(toFile: directory + "/model.yaml", atomically: false, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func pipeline(export: String) throws -> String {
        let file = directory + "/pipeline.yaml"
        try """
        model: model.yaml
        sources:
          - { entity: Order, path: \(export), format: dynamodb-export }
        destination: { path: store.sqlite }
        report: { directory: reports }
        """.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    func testAnExportFolderLoadsWithExactValuesAndRejectsNameTheFileAndLine() throws {
        let export = try fixture.writeFolder(in: directory + "/s3")
        let run = try ImporterProcess.run(["run", try pipeline(export: export), "--quiet"])
        XCTAssertEqual(run.status, 1, run.stderr)
        let store = directory + "/store.sqlite"
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store,
                "SELECT orderId, amount, typeof(amount), quantity, hex(receipt), tags, paid, quote(note) FROM \"Order\" ORDER BY 1"
            ),
            """
            o-1|12345678901234567890.123456789|text|3|000102FAFF|{"SS":["gift","rush"]}|1|NULL
            o-2|-0.1|text|9223372036854775807||{"L":[{"S":"a"},{"N":"1.50"}]}|0|'Café "Zoë"'
            o-3|100|text|||{"M":{"k":{"S":"v"}}}||NULL
            """)
        let rejects = try ImporterProcess.rejects(in: directory + "/reports")
        XCTAssertEqual(rejects.count, 1)
        XCTAssertEqual(rejects.first?.string("source"), export + "/data/i9j0k1l2m3n4o5p6.json.gz")
        XCTAssertEqual(rejects.first?.int("line"), 2)
        XCTAssertEqual(rejects.first?.string("field"), "details")
        XCTAssertTrue(
            rejects.first?.string("message")?.contains("details: is a DynamoDB M (map)") ?? false, "\(rejects)")
        let totals = try ImporterProcess.report(in: directory + "/reports").object("totals")
        XCTAssertEqual(totals.int("read"), 4)
        XCTAssertEqual(totals.int("inserted"), 3)
        XCTAssertEqual(totals.int("rejected"), 1)

        // A second run changes nothing, and --resume after a finished run reads nothing twice.
        let again = try ImporterProcess.run(["run", try pipeline(export: export), "--quiet", "--resume"])
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertEqual(try ImporterProcess.sqlite(store, "SELECT count(*), max(version) FROM \"Order\""), "3|1")
    }

    func testAWrongChecksumIsAnIntegrityErrorNamingTheFileAndNothingIsWritten() throws {
        let export = try fixture.writeFolder(in: directory + "/s3") { index, line in
            if index == 1 { line.md5Checksum = "AAAAAAAAAAAAAAAAAAAAAA==" }
        }
        let run = try ImporterProcess.run(["run", try pipeline(export: export), "--quiet"])
        XCTAssertEqual(run.status, 4, run.stderr)
        XCTAssertTrue(
            run.stderr.contains(export + "/data/i9j0k1l2m3n4o5p6.json.gz: the MD5 of the file is "), run.stderr)
        XCTAssertTrue(run.stderr.contains("but manifest-files.json line 2 says AAAAAAAAAAAAAAAAAAAAAA=="), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/store.sqlite"))
    }

    func testAWrongItemCountOrAMissingDataFileIsAnIntegrityError() throws {
        let export = try fixture.writeFolder(in: directory + "/s3") { index, line in
            if index == 0 { line.itemCount = 3 }
        }
        let count = try ImporterProcess.run(["run", try pipeline(export: export), "--quiet"])
        XCTAssertEqual(count.status, 4, count.stderr)
        XCTAssertTrue(
            count.stderr.contains(
                export + "/data/a1b2c3d4e5f6g7h8.json.gz: the file holds 2 items, but manifest-files.json line 1 says 3"
            ),
            count.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/store.sqlite"))

        _ = try fixture.writeFolder(in: directory + "/s3")
        try FileManager.default.removeItem(atPath: export + "/data/i9j0k1l2m3n4o5p6.json.gz")
        let missing = try ImporterProcess.run(["run", try pipeline(export: export), "--quiet"])
        XCTAssertEqual(missing.status, 4, missing.stderr)
        XCTAssertTrue(
            missing.stderr.contains("i9j0k1l2m3n4o5p6.json.gz: manifest-files.json line 2 lists this data file"),
            missing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/store.sqlite"))
    }

    func testAFolderWithoutManifestsIsAConfigurationError() throws {
        try FileManager.default.createDirectory(atPath: directory + "/empty", withIntermediateDirectories: true)
        let run = try ImporterProcess.run(["run", try pipeline(export: directory + "/empty"), "--quiet"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("manifest-summary.json cannot be read"), run.stderr)
    }

    /// Killed after a checkpoint and resumed: the checkpoint names a data file and where in it,
    /// and the resumed run ends with every item stored once, as an uninterrupted run would.
    func testAKilledRunResumesAfterItsLastCheckpoint() throws {
        let perFile = 25_000
        let large = DynamoDBExportFixture(
            dataFiles: (0..<3).map { file in
                (
                    "part-\(file)",
                    (0..<perFile).map { #"{"Item":{"orderId":{"S":"o-\#(file)-\#($0)"},"amount":{"N":"\#($0).25"}}}"# }
                )
            })
        let export = try large.writeFolder(in: directory + "/s3")
        let pipeline = try pipeline(export: export)
        try String(contentsOfFile: pipeline, encoding: .utf8).replacingOccurrences(
            of: "report:", with: "write: { batchSize: 2000 }\nreport:"
        )
        .write(toFile: pipeline, atomically: false, encoding: .utf8)
        let store = directory + "/store.sqlite"
        func checkpointed() -> [String: Any]? {
            let state = (try? ImporterProcess.sqlite(store, "SELECT state FROM _importer_checkpoint")) ?? ""
            guard let data = state.data(using: .utf8), !state.isEmpty else { return nil }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        }
        let killed = try ImporterProcess.kill(["run", pipeline, "--quiet"]) { _ in checkpointed() != nil }
        XCTAssertTrue(killed, "the run finished before it could be killed; make the export larger")
        let inputs = try XCTUnwrap(checkpointed()).objects("inputs")
        XCTAssertTrue(
            inputs.contains { ($0.string("path") ?? "").hasPrefix(export + "/data/part-") && $0.int("nextRecord") > 0 },
            "\(inputs)")

        let resumed = try ImporterProcess.run(["run", pipeline, "--resume", "--quiet"])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, "SELECT count(*), count(DISTINCT orderId), max(version) FROM \"Order\""),
            "\(3 * perFile)|\(3 * perFile)|1")
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, "SELECT amount FROM \"Order\" WHERE orderId = 'o-2-24999'"), "24999.25")
        let report = try ImporterProcess.report(in: directory + "/reports")
        XCTAssertGreaterThan(report.object("resumed").int("recordsDone"), 0)
    }
}
