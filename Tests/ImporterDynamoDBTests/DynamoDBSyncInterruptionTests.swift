import Foundation
import TestSupport
import XCTest

/// A sync run into DynamoDB killed while its delete phase deletes one item at a time
/// (docs/writes.md#resume): `--resume` deletes the rest, and its report and deletes.ndjson list
/// every deleted item once, those deleted before the kill included.
final class DynamoDBSyncInterruptionTests: MotoTestCase {
    func testARunKilledAmongItsDeletesResumesReportingEveryDeleteOnce() throws {
        let server = try server()
        // Through a proxy, which forwards only whole requests: the table can be counted while
        // the run is stopped.
        let proxy = try FaultProxy(upstream: server.endpoint, rates: .init(), operations: [])
        defer { proxy.stop() }
        let environment = ImporterBinary.environment(server, endpoint: proxy.endpoint)
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try TestPipelines.checkins(600).write(toFile: directory + "/base.ndjson", atomically: false, encoding: .utf8)
        try TestPipelines.checkins(400).write(toFile: directory + "/refresh.ndjson", atomically: false, encoding: .utf8)
        let write = "{ mode: sync, transactional: false, concurrency: 2, maxDeletes: 1000 }"
        let base = try TestPipelines.write(
            in: directory, name: "base", checkins: directory + "/base.ndjson", prefix: "sync-", write: write)
        XCTAssertEqual(try ImporterBinary.run(["run", base, "--quiet"], environment: environment).status, 0)

        let refresh = try TestPipelines.write(
            in: directory, name: "refresh", checkins: directory + "/refresh.ndjson", prefix: "sync-", write: write)
        let killed = try ImporterProcess.signal(["run", refresh, "--quiet"], SIGKILL, environment: environment) { _ in
            let count = try self.checkinCount()
            return count < 600 && count > 400
        }
        XCTAssertTrue(killed.sent, "the deletes ended before the run could be killed among them")
        let resumed = try ImporterBinary.run(["run", refresh, "--resume", "--quiet"], environment: environment)
        XCTAssertEqual(resumed.status, 0, resumed.output)

        XCTAssertEqual(try checkinCount(), 400)
        let report = try ImporterBinary.report(directory + "/reports-refresh")
        XCTAssertEqual((report["deletes"] as? [String: Any])?["deleted"] as? [String: Int], ["Checkin": 200])
        let deletes = try String(contentsOfFile: directory + "/reports-refresh/deletes.ndjson", encoding: .utf8)
            .split(separator: "\n")
        XCTAssertEqual(deletes.count, 200, "every deleted checkin")
        XCTAssertEqual(Set(deletes).count, 200, "each once")
    }

    /// The items of the Checkin table.
    private func checkinCount() throws -> Int {
        let page = try client().sendJSON("Scan", json(["TableName": "sync-Checkin", "Select": "COUNT"]))
        return page["Count"] as? Int ?? -1
    }
}
