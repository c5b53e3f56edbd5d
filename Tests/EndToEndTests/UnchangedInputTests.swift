import Foundation
import TestSupport
import XCTest

/// A run of the inputs the last run stored in full, through the same pipeline and model, into a
/// store nothing has written to since, reads nothing and reports every record unchanged; any
/// write, any changed byte of input, pipeline or schema, and any rejection make the next run
/// read everything again.
final class UnchangedInputTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    static let checkins = 3_000

    func write(_ text: String, _ name: String) throws {
        try text.write(toFile: directory + "/" + name, atomically: false, encoding: .utf8)
    }

    func writeInputs(badRating: Bool = false) throws {
        var locations = "locationId,name,latitude,longitude,createdAt\n"
        for index in 0..<50 { locations += "loc-\(index),Place \(index),1.5,2.5,2024-03-01T10:15:30Z\n" }
        try write(locations, "locations.csv")
        var checkins = "checkinId,locationId,checkinTime,comment,rating\n"
        for index in 0..<Self.checkins {
            let rating = badRating && index == 1234 ? 9 : index % 5 + 1
            checkins += "c-\(index),loc-\(index % 50),2024-05-01T08:00:00Z,fine,\(rating)\n"
        }
        try write(checkins, "checkins.csv")
    }

    var pipeline: String { directory + "/pipeline.yaml" }
    var store: String { directory + "/store.sqlite" }

    func writePipeline() throws {
        let model = ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        try write(
            """
            model: \(model)
            sources:
              - { entity: Location, path: locations.csv }
              - { entity: Checkin, path: checkins.csv }
            destination: { path: store.sqlite }
            errors:
              maxErrors: "${MAX_ERRORS:-1000}"
            report: { directory: reports }
            """, "pipeline.yaml")
    }

    struct Run {
        let status: Int32
        let stderr: String
        let report: [String: Any]
        var writePaths: [String] { report.objects("entities").map { $0.string("writePath") ?? "none" } }
        var totals: [String: Any] { report.object("totals") }
        var unchangedSince: String? { report.string("unchangedSince") }
        var runId: String { report.string("runId") ?? "" }
        func count(_ name: String) -> Int { totals.int(name) }
    }

    func runPipeline(_ extra: [String] = [], environment: [String: String] = [:]) throws -> Run {
        let result = try ImporterProcess.run(["run", pipeline, "--quiet"] + extra, environment: environment)
        return Run(
            status: result.status, stderr: result.stderr, report: try ImporterProcess.report(in: directory + "/reports")
        )
    }

    func dump() throws -> String {
        try ImporterProcess.sqlite(store, "SELECT * FROM \"AWS-Locations\" ORDER BY locationId") + "\n"
            + ImporterProcess.sqlite(store, "SELECT * FROM Checkin ORDER BY checkinId")
    }

    /// Asserts that `run` read every record and found `updated` of them changed.
    func assertRead(_ run: Run, updated: Int = 0, inserted: Int = 0, file: StaticString = #filePath, line: UInt = #line)
    {
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        XCTAssertNil(run.unchangedSince, file: file, line: line)
        XCTAssertEqual(run.writePaths, ["incremental", "incremental"], file: file, line: line)
        XCTAssertEqual(run.count("read"), Self.checkins + 50, file: file, line: line)
        XCTAssertEqual(run.count("updated"), updated, file: file, line: line)
        XCTAssertEqual(run.count("inserted"), inserted, file: file, line: line)
    }

    /// Asserts that `run` read nothing and reported every record unchanged since `runId`.
    func assertSkipped(_ run: Run, since runId: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        XCTAssertEqual(run.unchangedSince, runId, file: file, line: line)
        XCTAssertEqual(run.writePaths, ["unchangedInput", "unchangedInput"], file: file, line: line)
        XCTAssertEqual(run.count("read"), Self.checkins + 50, file: file, line: line)
        XCTAssertEqual(run.count("unchanged"), Self.checkins + 50, file: file, line: line)
        XCTAssertTrue(run.stderr.contains("inputs unchanged since run \(runId)"), run.stderr, file: file, line: line)
    }

    func testARunOfInputsStoredInFullReadsNothing() throws {
        try writeInputs()
        try writePipeline()
        let first = try runPipeline()
        XCTAssertEqual(first.count("inserted"), Self.checkins + 50, first.stderr)
        let stored = try dump()

        let second = try runPipeline()
        assertSkipped(second, since: first.runId)
        XCTAssertEqual(try dump(), stored)
        XCTAssertEqual(try String(contentsOfFile: directory + "/reports/rejects.ndjson", encoding: .utf8), "")
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, "SELECT count(*) FROM _importer_runs"), "2", "the run is in the history")

        // --read-unchanged reads and compares every record, and records them again.
        let reread = try runPipeline(["--read-unchanged"])
        assertRead(reread)
        XCTAssertEqual(reread.count("unchanged"), Self.checkins + 50)
        assertSkipped(try runPipeline(), since: reread.runId)

        // A new modification time with the same bytes is still the same input.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: directory + "/checkins.csv")
        assertSkipped(try runPipeline(), since: reread.runId)
        XCTAssertEqual(try ImporterProcess.sqlite(store, "PRAGMA integrity_check"), "ok")
    }

    func testAWriteByAnyoneSinceMakesTheNextRunReadEverything() throws {
        try writeInputs()
        try writePipeline()
        _ = try runPipeline()

        // An edit of a stored item by another tool: the run reads, finds it and writes it back.
        _ = try ImporterProcess.sqlite(store, "UPDATE Checkin SET rating = 5 WHERE checkinId = 'c-7'")
        let afterEdit = try runPipeline()
        assertRead(afterEdit, updated: 1)
        XCTAssertEqual(try ImporterProcess.sqlite(store, "SELECT rating FROM Checkin WHERE checkinId = 'c-7'"), "3")
        assertSkipped(try runPipeline(), since: afterEdit.runId)

        // A parent deleted, in a table no input of the check-ins writes.
        _ = try ImporterProcess.sqlite(store, "DELETE FROM \"AWS-Locations\" WHERE locationId = 'loc-3'")
        let afterDelete = try runPipeline()
        assertRead(afterDelete, inserted: 1)
        assertSkipped(try runPipeline(), since: afterDelete.runId)

        // A change of the schema (an index): the store may hold something else now.
        _ = try ImporterProcess.sqlite(store, "CREATE INDEX checkin_rating ON Checkin (rating)")
        let afterIndex = try runPipeline()
        assertRead(afterIndex)
        assertSkipped(try runPipeline(), since: afterIndex.runId)

        // The recorded inputs themselves deleted (or the triggers that watch): read again.
        _ = try ImporterProcess.sqlite(store, "DROP TRIGGER \"_importer_unchanged_Checkin_update\"")
        let afterTrigger = try runPipeline()
        assertRead(afterTrigger)
        assertSkipped(try runPipeline(), since: afterTrigger.runId)
    }

    func testAChangedInputOrPipelineIsReadAgain() throws {
        try writeInputs()
        try writePipeline()
        let first = try runPipeline()

        // One byte of the input changed, the size the same: the record is read and updated.
        let path = directory + "/checkins.csv"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(
            of: "c-42,loc-42,2024-05-01T08:00:00Z,fine,3", with: "c-42,loc-42,2024-05-01T08:00:00Z,fine,4"
        )
        .write(toFile: path, atomically: false, encoding: .utf8)
        let changed = try runPipeline()
        assertRead(changed, updated: 1)
        XCTAssertNotEqual(changed.runId, first.runId)
        assertSkipped(try runPipeline(), since: changed.runId)

        // A variable the pipeline names has another value: the pipeline is another one.
        let otherVariable = try runPipeline(environment: ["MAX_ERRORS": "5"])
        assertRead(otherVariable)
        assertSkipped(try runPipeline(environment: ["MAX_ERRORS": "5"]), since: otherVariable.runId)
        assertRead(try runPipeline())
    }

    func testARunWithRejectionsIsNotRecorded() throws {
        try writeInputs(badRating: true)
        try writePipeline()
        for _ in 0..<2 {
            let result = try ImporterProcess.run(["run", pipeline, "--quiet"])
            XCTAssertEqual(result.status, 1, result.stderr)
            let report = try ImporterProcess.report(in: directory + "/reports")
            XCTAssertNil(
                report.string("unchangedSince"), "a run that rejected a record reads again and reports the reject again"
            )
            XCTAssertEqual(try ImporterProcess.rejects(in: directory + "/reports").map { $0.int("line") }, [1236])
        }
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, "SELECT count(*) FROM sqlite_master WHERE name GLOB '_importer_unchanged*'"), "0",
            "nothing recorded, nothing watched")
    }
}
