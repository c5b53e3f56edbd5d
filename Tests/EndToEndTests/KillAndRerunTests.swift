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
        var locations = "locationId,name,latitude,longitude,createdAt\n"
        for index in 0..<100 { locations += "loc-\(index),\"Place \(index), town\",1.5,2.5,2024-03-01T10:15:30Z\n" }
        try locations.write(toFile: directory + "/locations.csv", atomically: false, encoding: .utf8)
        var checkins = "checkinId,locationId,checkinTime,comment,rating\n"
        checkins.reserveCapacity(Self.rows * 80)
        for index in 0..<Self.rows {
            // Keys out of order, as in real dumps.
            let key = (index &* 7919) % Self.rows
            checkins += "c-\(key),loc-\(index % 100),2024-05-01T08:00:00.\(String(format: "%03d", index % 1000))Z,\"comment \(index), with a comma\",\(index % 5 + 1)\n"
        }
        try checkins.write(toFile: directory + "/checkins.csv", atomically: false, encoding: .utf8)
        let model = ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        let pipeline = directory + "/pipeline.yaml"
        try """
            model: \(model)
            sources:
              - { entity: Location, path: locations.csv }
              - { entity: Checkin, path: checkins.csv }
            destination: { path: store.sqlite }
            write: { batchSize: \(Self.batchSize), bulk: false }
            report: { directory: reports }
            """.write(toFile: pipeline, atomically: false, encoding: .utf8)
        return pipeline
    }

    func checkinCount() throws -> Int {
        Int(try ImporterProcess.sqlite(directory + "/store.sqlite", "SELECT count(*) FROM Checkin")) ?? 0
    }

    func testKillMidImportThenRerunCompletesIt() throws {
        let pipeline = try writeInputs()
        var killedAt: [Int] = []
        for target in [1, 8] {
            let process = ImporterProcess.start(["run", pipeline, "--quiet"])
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline, process.isRunning,
                  (try? checkinCount()) ?? 0 < killedAt.last.map({ $0 + target * Self.batchSize }) ?? target * Self.batchSize {
                usleep(20_000)
            }
            XCTAssertTrue(process.isRunning, "the import finished before it could be killed; make it larger")
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)

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
        XCTAssertEqual(try ImporterProcess.sqlite(directory + "/store.sqlite", "SELECT count(DISTINCT checkinId), max(version) FROM Checkin"),
                       "\(Self.rows)|1")
    }
}
