import Foundation
import TestSupport
import XCTest

/// Exit codes 0–3 and configuration errors that name file and line.
final class ExitCodeTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    func pipeline(_ text: String) -> String {
        let file = directory + "/pipeline.yaml"
        try! text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    var model: String { ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path }
    var bad: String { ImporterProcess.root.appendingPathComponent("SampleData/Locations/bad").path }

    func testConfigurationErrorsExitWith2AndNameFileAndLine() throws {
        let unknownKey = pipeline("""
            model: \(model)
            sources:
              - entity: Location
                path: \(bad)/locations-bad.csv
            destination: { path: \(directory)/s.sqlite }
            write: { mode: upsert, batchsize: 10 }
            """)
        let result = try ImporterProcess.run(["run", unknownKey])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("\(unknownKey):6: 'batchsize': unknown key"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/s.sqlite"))

        let unknownEntity = pipeline("model: \(model)\nsources:\n  - entity: Place\n    path: \(bad)/locations-bad.csv\n")
        let entityResult = try ImporterProcess.run(["run", unknownEntity, "--report-dir", directory + "/r"])
        XCTAssertEqual(entityResult.status, 2)
        XCTAssertTrue(entityResult.stderr.contains("\(unknownEntity):3"), entityResult.stderr)
        XCTAssertTrue(entityResult.stderr.contains("'Place' is not an entity"), entityResult.stderr)

        let brokenModel = directory + "/model.yaml"
        try "model: M\nversion: 1\nentities:\n  A:\n    hashKey: id\n    versionAttribute: v\n    attributes:\n      id: { type: uuid }\n".write(toFile: brokenModel, atomically: true, encoding: .utf8)
        let modelResult = try ImporterProcess.run(["validate", pipeline("model: model.yaml\nsources:\n  - entity: A\n    path: \(bad)/locations-bad.csv\n")])
        XCTAssertEqual(modelResult.status, 2)
        XCTAssertTrue(modelResult.stderr.contains("\(brokenModel):8"), modelResult.stderr)

        let usage = try ImporterProcess.run(["run"])
        XCTAssertNotEqual(usage.status, 0)
    }

    func testErrorLimitAbortsWith3AndReportsWhatWasCommitted() throws {
        let file = pipeline("""
            model: \(model)
            sources:
              - { entity: Location, path: \(bad)/locations-bad.csv }
              - { entity: Checkin, path: \(bad)/checkins-bad.ndjson }
            destination: { path: \(directory)/s.sqlite }
            write: { batchSize: 5 }
            errors: { maxErrors: 3 }
            report: { directory: \(directory)/reports }
            """)
        let result = try ImporterProcess.run(["run", file, "--quiet"])
        XCTAssertEqual(result.status, 3, result.stderr)
        let report = try ImporterProcess.report(in: directory + "/reports")
        XCTAssertEqual(report.string("status"), "aborted")
        XCTAssertTrue(report.string("abortReason")?.contains("maxErrors") == true)
        let totals = report.object("totals")
        XCTAssertEqual(totals.int("rejected"), 4)
        XCTAssertEqual(totals.int("read"), totals.int("inserted") + totals.int("rejected") + totals.int("rolledBack"))
        let stored = Int(try ImporterProcess.sqlite(directory + "/s.sqlite", "SELECT count(*) FROM \"AWS-Locations\"")) ?? -1
        XCTAssertEqual(stored, totals.int("inserted"))
        XCTAssertEqual(try ImporterProcess.sqlite(directory + "/s.sqlite", "SELECT count(*) FROM Checkin"), "0")
    }

    func testErrorRatioAbortsWith3() throws {
        let file = pipeline("""
            model: \(model)
            sources:
              - { entity: Location, path: \(bad)/locations-bad.csv }
            destination: { path: \(directory)/s.sqlite }
            errors: { maxErrorRatio: 0.1 }
            report: { directory: \(directory)/reports }
            """)
        let result = try ImporterProcess.run(["run", file, "--quiet"])
        XCTAssertEqual(result.status, 3, result.stderr)
        let report = try ImporterProcess.report(in: directory + "/reports")
        XCTAssertTrue(report.string("abortReason")?.contains("20 of 40 records rejected") == true, "\(report)")
        XCTAssertTrue(result.stderr.contains("status: aborted"), result.stderr)
    }

    func testAtomicRunThatAbortsCommitsNothing() throws {
        let file = pipeline("""
            model: \(model)
            sources:
              - { entity: Location, path: \(bad)/locations-bad.csv }
            destination: { path: \(directory)/s.sqlite }
            write: { batchSize: 5, atomic: true }
            errors: { maxErrors: 10 }
            report: { directory: \(directory)/reports }
            """)
        let result = try ImporterProcess.run(["run", file, "--quiet"])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertEqual(try ImporterProcess.sqlite(directory + "/s.sqlite", "SELECT count(*) FROM \"AWS-Locations\""), "0")
        let totals = try ImporterProcess.report(in: directory + "/reports").object("totals")
        XCTAssertEqual(totals.int("inserted"), 0)
        XCTAssertGreaterThan(totals.int("rolledBack"), 0)
        XCTAssertEqual(totals.int("read"), totals.int("rejected") + totals.int("rolledBack"))
    }
}
