import Foundation
import ImporterCore
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// docs/writes.md#resume on DynamoDB: a run killed with SIGKILL resumes from `<report dir>/checkpoint.json`;
/// what was written after the last checkpoint is replayed and found unchanged.
final class DynamoDBResumeTests: MotoTestCase {
    func testAKilledRunResumesFromItsCheckpointFile() throws {
        let count = 6000
        let server = try server()
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ImporterBinary.environment(server)
        let dump = directory + "/checkins.ndjson"
        try TestPipelines.checkins(count).write(toFile: dump, atomically: false, encoding: .utf8)
        let pipeline = try TestPipelines.write(
            in: directory, name: "resume", checkins: dump, prefix: "resume-",
            write: "{ mode: upsert, transactional: false, concurrency: 2 }")
        let checkpoint = directory + "/reports-resume/checkpoint.json"

        let run = try ImporterBinary.process(
            ["run", pipeline, "--quiet"], environment: environment,
            log: URL(fileURLWithPath: directory + "/first.log"))
        try run.run()
        let deadline = Date().addingTimeInterval(120)
        while run.isRunning, Date() < deadline, !checkpointPassedLocations(checkpoint) { usleep(20_000) }
        XCTAssertTrue(run.isRunning, "the run ended before it could be killed")
        kill(run.processIdentifier, SIGKILL)
        run.waitUntilExit()
        XCTAssertTrue(FileManager.default.fileExists(atPath: checkpoint), "the killed run left its checkpoint")

        let resumed = try ImporterBinary.run(["run", pipeline, "--resume", "--quiet"], environment: environment)
        XCTAssertEqual(resumed.status, 0, resumed.output)
        let report = try ImporterBinary.report(directory + "/reports-resume")
        XCTAssertEqual(report.number("totals", "read"), count + 500)
        XCTAssertEqual(report.number("totals", "inserted") + report.number("totals", "unchanged"), count + 500)
        XCTAssertEqual(report.number("totals", "rejected"), 0)
        XCTAssertGreaterThan(
            report.number("resumed", "recordsDone"), 500, "the resumed run skipped what the checkpoint held")
        XCTAssertFalse(FileManager.default.fileExists(atPath: checkpoint), "a finished run clears its checkpoint")

        var options = DynamoDBStore.Options()
        options.tablePrefix = "resume-"
        let store = try DynamoDBStore(client: try client(), options: options)
        XCTAssertTrue(try store.prepareToRead(try SampleModel.model()))
        let checkin = try SampleModel.checkin()
        var versions: [String: Value] = [:]
        try store.scan(checkin) { values in
            if case .string(let key) = values[checkin.hashKeyIndex] { versions[key] = values[checkin.versionIndex] }
        }
        XCTAssertEqual(versions.count, count)
        XCTAssertEqual(Set(versions.values), [.integer(1)], "every item written once, at version 1")
    }

    /// Whether the checkpoint file records Checkin records done (the run is past the Locations).
    private func checkpointPassedLocations(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)
        else { return false }
        return text.contains("checkins.ndjson")
    }
}
