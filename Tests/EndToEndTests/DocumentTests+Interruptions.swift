import Foundation
import TestSupport
import XCTest

/// A documents run stopped anywhere (docs/writes.md#resume): by `kill -9` or SIGTERM, before its
/// first commit, between batches, once every document is written, once the children that left
/// their documents are deleted, and a resumed run stopped again. Resumed until it ends, it leaves
/// the store, the counts and deletes.ndjson of the run that was never stopped.
extension DocumentTests {
    /// Where a run is stopped: `signal` is sent at the first moment `reached` holds for the
    /// store it writes.
    struct StopPoint {
        let name: String
        let signal: Int32
        let reached: (_ store: String) throws -> Bool
    }

    func testARunStoppedAtTenPointsResumesToTheStoreCountsAndDeletesOfAnUninterruptedOne() throws {
        let (base, reference) = try loadOrdersAndTheirRefresh(count: 500, batchSize: 500)
        let expected = try ReportedOutcome(reports: directory + "/reports-reference")
        // The refresh has 6,500 records (500 orders of 6 lines with an adjustment each); its
        // batches commit every 500 records or so.
        let written = { (share: Int) in { (store: String) in self.checkpointedRecords(store) >= 6_500 * share / 100 } }
        let begun = { (name: String) in FileManager.default.fileExists(atPath: self.directory + "/reports-\(name)") }
        let replaced = { (store: String) in try ImporterProcess.sqlite(store, "SELECT count(*) FROM Line") == "3001" }
        let stops: [[StopPoint]] = [
            [StopPoint(name: "kill-at-once", signal: SIGKILL) { _ in true }],
            // Once its report directory is made, the run stops cleanly on a signal.
            [StopPoint(name: "term-at-start", signal: SIGTERM) { _ in begun("term-at-start") }],
            [StopPoint(name: "kill-10", signal: SIGKILL, reached: written(10))],
            [StopPoint(name: "term-30", signal: SIGTERM, reached: written(30))],
            [StopPoint(name: "kill-50", signal: SIGKILL, reached: written(50))],
            [StopPoint(name: "term-70", signal: SIGTERM, reached: written(70))],
            [StopPoint(name: "kill-90", signal: SIGKILL, reached: written(90))],
            [StopPoint(name: "kill-replaced", signal: SIGKILL, reached: replaced)],
            [StopPoint(name: "term-replaced", signal: SIGTERM, reached: replaced)],
            [
                StopPoint(name: "kill-20-then-40", signal: SIGKILL, reached: written(20)),
                StopPoint(name: "kill-20-then-40", signal: SIGTERM, reached: written(40)),
            ],
        ]
        for points in stops {
            let name = points[0].name
            let store = directory + "/\(name).sqlite"
            try FileManager.default.copyItem(atPath: base, toPath: store)
            let refresh = try pipeline(name, input: "refresh.ndjson", store: store, batchSize: 500)
            var arguments = ["run", refresh, "--quiet"]
            var status: Int32 = 3
            for point in points {
                let run = try ImporterProcess.signal(arguments, point.signal) { _ in try point.reached(store) }
                XCTAssertTrue(run.sent, "\(name): the run ended before the signal")
                status = point.signal == SIGKILL ? 3 : run.status
                XCTAssertTrue([1, 3].contains(status), "\(name): a run stopped by SIGTERM exited \(status)")
                arguments = ["run", refresh, "--resume", "--quiet"]
            }
            if status == 3 {
                let resumed = try ImporterProcess.run(arguments)
                XCTAssertEqual(resumed.status, 1, "\(name): \(resumed.stderr)")
            }
            XCTAssertEqual(try dump(store), try dump(reference), "\(name): every item and version")
            let outcome = try ReportedOutcome(reports: directory + "/reports-\(name)")
            XCTAssertEqual(outcome.totals, expected.totals, "\(name): the counts of the whole run")
            XCTAssertEqual(outcome.deletes, expected.deletes, "\(name): every deleted item listed")
            XCTAssertTrue(outcome.deletesListedOnce, "\(name): a delete listed twice")
            XCTAssertEqual(outcome.rejects, expected.rejects, "\(name): rejects.ndjson")
        }
    }
}
