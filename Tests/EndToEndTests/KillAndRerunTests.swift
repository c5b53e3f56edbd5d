import Foundation
import TestSupport
import XCTest

/// `kill -9` in the middle of a large import written record by record (`bulk: false`; the bulk
/// path is killed in `BulkLoadTests`): the store opens cleanly, holds whole committed batches
/// only, and a re-run completes it without counting any record twice.
final class KillAndRerunTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    static let rows = 300_000
    static let batchSize = 10_000

    func writeInputs() throws -> String {
        // Keys out of order, as in real dumps.
        try LocationDumps.write(in: directory, rows: Self.rows, key: { ($0 &* 7919) % Self.rows })
        return try LocationDumps.pipeline(in: directory, write: "{ batchSize: \(Self.batchSize), bulk: false }")
    }

    func checkinCount() throws -> Int {
        Int(try ImporterProcess.sqlite(directory + "/store.sqlite", "SELECT count(*) FROM Checkin")) ?? 0
    }

    func testKillMidImportThenRerunCompletesIt() throws {
        let pipeline = try writeInputs()
        var killedAt: [Int] = []
        for target in [1, 8] {
            let least = (killedAt.last ?? 0) + target * Self.batchSize
            let killed = try ImporterProcess.kill(["run", pipeline, "--quiet"]) { _ in
                (try? checkinCount()) ?? 0 >= least
            }
            XCTAssertTrue(killed, "the import finished before it could be killed; make it larger")

            XCTAssertEqual(try ImporterProcess.sqlite(directory + "/store.sqlite", "PRAGMA integrity_check"), "ok")
            let stored = try checkinCount()
            XCTAssertEqual(stored % Self.batchSize, 0, "only whole batches are committed")
            XCTAssertGreaterThan(stored, killedAt.last ?? 0)
            XCTAssertLessThan(stored, Self.rows)
            killedAt.append(stored)
        }

        let rerun = try ImporterProcess.run(["run", pipeline, "--quiet"])
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try checkinCount(), Self.rows)
        let report = try ImporterProcess.report(in: directory + "/reports")
        let checkin = report.objects("entities").first { $0.string("entity") == "Checkin" }!.object("counts")
        XCTAssertEqual(checkin.int("read"), Self.rows)
        XCTAssertEqual(checkin.int("unchanged"), killedAt.last!)
        XCTAssertEqual(checkin.int("inserted"), Self.rows - killedAt.last!)
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                directory + "/store.sqlite", "SELECT count(DISTINCT checkinId), max(version) FROM Checkin"),
            "\(Self.rows)|1")
    }
}
