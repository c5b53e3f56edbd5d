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
        try! text.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    var model: String { ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path }
    var bad: String { ImporterProcess.root.appendingPathComponent("SampleData/Locations/bad").path }

    func testConfigurationErrorsExitWith2AndNameFileAndLine() throws {
        let unknownKey = pipeline(
            """
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

        let unknownEntity = pipeline(
            "model: \(model)\nsources:\n  - entity: Place\n    path: \(bad)/locations-bad.csv\n")
        let entityResult = try ImporterProcess.run(["run", unknownEntity, "--report-dir", directory + "/r"])
        XCTAssertEqual(entityResult.status, 2)
        XCTAssertTrue(entityResult.stderr.contains("\(unknownEntity):3"), entityResult.stderr)
        XCTAssertTrue(entityResult.stderr.contains("'Place' is not an entity"), entityResult.stderr)

        let brokenModel = directory + "/model.yaml"
        try
            "model: M\nversion: 1\nentities:\n  A:\n    hashKey: id\n    versionAttribute: v\n    attributes:\n      id: { type: guid }\n"
            .write(toFile: brokenModel, atomically: false, encoding: .utf8)
        let modelResult = try ImporterProcess.run([
            "validate", pipeline("model: model.yaml\nsources:\n  - entity: A\n    path: \(bad)/locations-bad.csv\n"),
        ])
        XCTAssertEqual(modelResult.status, 2)
        XCTAssertTrue(modelResult.stderr.contains("\(brokenModel):8"), modelResult.stderr)

        let usage = try ImporterProcess.run(["run"])
        XCTAssertNotEqual(usage.status, 0)
    }

    func testErrorLimitAbortsWith3AndReportsWhatWasCommitted() throws {
        let file = pipeline(
            """
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
        XCTAssertEqual(
            totals.int("read"),
            totals.int("inserted") + totals.int("rejected") + totals.int("rolledBack") + totals.int("notWritten"))
        let stored =
            Int(try ImporterProcess.sqlite(directory + "/s.sqlite", "SELECT count(*) FROM \"AWS-Locations\"")) ?? -1
        XCTAssertEqual(stored, totals.int("inserted"))
        XCTAssertEqual(try ImporterProcess.sqlite(directory + "/s.sqlite", "SELECT count(*) FROM Checkin"), "0")
    }

    func testErrorRatioAbortsWith3OnceMinRecordsWereRead() throws {
        let file = pipeline(
            """
            model: \(model)
            sources:
              - { entity: Location, path: \(bad)/locations-bad.csv }
            destination: { path: \(directory)/s.sqlite }
            errors: { maxErrorRatio: 0.1, minRecords: 10 }
            report: { directory: \(directory)/reports }
            """)
        let result = try ImporterProcess.run(["run", file, "--quiet"])
        XCTAssertEqual(result.status, 3, result.stderr)
        let report = try ImporterProcess.report(in: directory + "/reports")
        let reason = report.string("abortReason") ?? ""
        XCTAssertTrue(
            reason.contains("records rejected") && reason.contains("errors.maxErrorRatio (10.0%)"), "\(report)")
        XCTAssertEqual(report.string("errorLimit"), reason)
        XCTAssertEqual(report.string("abortCause"), "errorLimit")
        XCTAssertNil(report.string("storeFailure"))
        XCTAssertLessThan(report.object("totals").int("rejected"), 20, "the run stopped before the end of its input")
        XCTAssertTrue(result.stderr.contains("status: aborted"), result.stderr)
    }

    /// Ten rows, one bad: the share (10%) is over the default ratio (5%), but ten records are
    /// no share to judge a run by (`minRecords`), so the run is partial, not aborted.
    func testASmallFileWithABadRowIsPartialNotAborted() throws {
        let rows = (1...10).map {
            $0 == 4
                ? "loc-4,Four,95.0,1,2024-01-01T00:00:00Z,1,1,1"
                : "loc-\($0),Place \($0),1,1,2024-01-01T00:00:00Z,1,1,1"
        }
        let csv = directory + "/ten.csv"
        try (["locationId,name,latitude,longitude,createdAt,active,rating,visits"] + rows).joined(separator: "\n")
            .write(toFile: csv, atomically: false, encoding: .utf8)
        let result = try ImporterProcess.run(["run", tenRows(csv, errors: "{}"), "--quiet"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let report = try ImporterProcess.report(in: directory + "/reports")
        XCTAssertEqual(report.string("status"), "partial")
        XCTAssertNil(report.string("errorLimit"))
        XCTAssertEqual(
            try ImporterProcess.sqlite(directory + "/s.sqlite", "SELECT count(*) FROM \"AWS-Locations\""), "9")
    }

    /// A limit passed by the last record leaves no input to stop reading: the run finishes,
    /// `partial`, and says which limit it passed. Passed by the first record, it aborts.
    func testALimitPassedAtTheEndIsPartialAndBeforeTheEndAborts() throws {
        let good = (1...9).map { "loc-\($0),Place \($0),1,1,2024-01-01T00:00:00Z,1,1,1" }
        let badRow = "loc-bad,Bad,95.0,1,2024-01-01T00:00:00Z,1,1,1"
        let header = "locationId,name,latitude,longitude,createdAt,active,rating,visits"
        let last = directory + "/last.csv", first = directory + "/first.csv"
        try ([header] + good + [badRow]).joined(separator: "\n").write(toFile: last, atomically: false, encoding: .utf8)
        try ([header, badRow] + good).joined(separator: "\n").write(toFile: first, atomically: false, encoding: .utf8)

        let atEnd = try ImporterProcess.run(["run", tenRows(last, errors: "{ maxErrors: 0 }"), "--quiet"])
        XCTAssertEqual(atEnd.status, 1, atEnd.stderr)
        let partial = try ImporterProcess.report(in: directory + "/reports")
        XCTAssertEqual(partial.string("status"), "partial")
        XCTAssertNil(partial.string("abortReason"))
        XCTAssertEqual(partial.string("errorLimit"), "1 records rejected, more than errors.maxErrors (0)")
        XCTAssertTrue(
            atEnd.stderr.contains("status: partial — 1 records rejected, more than errors.maxErrors (0)"), atEnd.stderr)
        XCTAssertEqual(
            try ImporterProcess.sqlite(directory + "/s.sqlite", "SELECT count(*) FROM \"AWS-Locations\""), "9")

        try FileManager.default.removeItem(atPath: directory + "/s.sqlite")
        let early = try ImporterProcess.run(["run", tenRows(first, errors: "{ maxErrors: 0 }"), "--quiet"])
        XCTAssertEqual(early.status, 3, early.stderr)
        let aborted = try ImporterProcess.report(in: directory + "/reports")
        XCTAssertEqual(aborted.string("status"), "aborted")
        XCTAssertEqual(aborted.string("abortReason"), "1 records rejected, more than errors.maxErrors (0)")
        XCTAssertEqual(
            aborted.object("totals").int("read"), 1, "nothing after the record that passed the limit is counted")
    }

    private func tenRows(_ csv: String, errors: String) -> String {
        pipeline(
            """
            model: \(model)
            sources:
              - { entity: Location, path: \(csv) }
            destination: { path: \(directory)/s.sqlite }
            errors: \(errors)
            report: { directory: \(directory)/reports }
            """)
    }

    func testAtomicRunThatAbortsCommitsNothing() throws {
        let file = pipeline(
            """
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
        XCTAssertEqual(
            try ImporterProcess.sqlite(directory + "/s.sqlite", "SELECT count(*) FROM \"AWS-Locations\""), "0")
        let totals = try ImporterProcess.report(in: directory + "/reports").object("totals")
        XCTAssertEqual(totals.int("inserted"), 0)
        XCTAssertGreaterThan(
            totals.int("rolledBack") + totals.int("notWritten"), 0, "what was read and not stored is counted")
        XCTAssertEqual(totals.int("read"), totals.int("rejected") + totals.int("rolledBack") + totals.int("notWritten"))
    }
}
