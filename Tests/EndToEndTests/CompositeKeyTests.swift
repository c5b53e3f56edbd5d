import Foundation
import TestSupport
import XCTest

/// Entities keyed by (hash, range) in SQLite, and references to them (docs/pipeline.md#references).
final class CompositeKeyTests: XCTestCase {
    var directory = ""

    override func setUp() {
        directory = ImporterProcess.temporaryDirectory()
        try! TestModels.weather(hour: "int32").write(
            toFile: directory + "/model.yaml", atomically: false, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func run(readings: String, alerts: String, mode: String = "upsert", references: String = "reject") throws
        -> ImporterProcess.Result
    {
        try ("stationId,hour,temperature\n" + readings).write(
            toFile: directory + "/readings.csv", atomically: false, encoding: .utf8)
        try ("alertId,stationId,hour\n" + alerts).write(
            toFile: directory + "/alerts.csv", atomically: false, encoding: .utf8)
        try """
        model: model.yaml
        sources:
          - { entity: Reading, path: readings.csv }
          - { entity: Alert, path: alerts.csv, references: \(references) }
        destination: { path: store.sqlite }
        write: { mode: \(mode), maxDeletes: 100% }
        errors: { maxErrorRatio: 1 }
        report: { directory: reports }
        """.write(toFile: directory + "/pipeline.yaml", atomically: false, encoding: .utf8)
        return try ImporterProcess.run(["run", directory + "/pipeline.yaml", "--quiet"])
    }

    private func query(_ sql: String) throws -> String { try ImporterProcess.sqlite(directory + "/store.sqlite", sql) }

    func testThePairIdentifiesAnItemAndReferencesNameBothParts() throws {
        let first = try run(
            readings: "ST1,10,18.5\nST1,11,19\nST2,10,21\nST1,10,17\n",
            alerts: "a1,ST1,11\na2,ST2,11\na3,ST2,NA\n")
        XCTAssertEqual(first.status, 1, first.stderr)
        XCTAssertEqual(
            try query(
                "SELECT group_concat(stationId || '/' || hour || '=' || temperature || ' v' || version, ' ') FROM (SELECT * FROM Reading ORDER BY stationId, hour)"
            ),
            "ST1/10=18.5 v1 ST1/11=19.0 v1 ST2/10=21.0 v1")
        XCTAssertEqual(try query("SELECT group_concat(alertId) FROM Alert"), "a1")
        let rejects = try ImporterProcess.rejects(in: directory + "/reports")
        XCTAssertEqual(
            rejects.map { "\($0.int("line")) \($0.string("reason") ?? "")" }, ["5 duplicate", "3 reference", "4 type"])
        XCTAssertEqual(rejects[0]["key"] as? [String], ["ST1", "10"])
        XCTAssertTrue(
            rejects[1].string("message")?.contains("[stationId, hour]: [\"ST2\", \"11\"] names no Reading") == true,
            "\(rejects[1])")

        // The same readings again are unchanged; a changed temperature is an update of that pair only.
        let again = try run(
            readings: "ST1,10,18.5\nST1,11,19.5\nST2,10,21\n", alerts: "a1,ST1,11\na2,ST2,11\n", references: "keep")
        XCTAssertEqual(again.status, 0, again.stderr)
        let totals = try ImporterProcess.report(in: directory + "/reports").object("totals")
        XCTAssertEqual([totals.int("unchanged"), totals.int("updated"), totals.int("inserted")], [3, 1, 1])
        XCTAssertEqual(try query("SELECT version FROM Reading WHERE stationId = 'ST1' AND hour = 11"), "2")
        XCTAssertEqual(try query("SELECT count(*) FROM Alert"), "2")
    }

    func testSyncDeletesThePairsTheInputNoLongerNamesWithTheirCascade() throws {
        XCTAssertEqual(
            try run(readings: "ST1,10,18.5\nST1,11,19\nST2,10,21\n", alerts: "a1,ST1,11\na2,ST2,10\n").status, 0)
        let sync = try run(readings: "ST1,10,18.5\nST2,10,21\n", alerts: "a2,ST2,10\n", mode: "sync")
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(
            try query(
                "SELECT group_concat(stationId || '/' || hour, ' ') FROM (SELECT * FROM Reading ORDER BY stationId, hour)"
            ), "ST1/10 ST2/10")
        XCTAssertEqual(try query("SELECT group_concat(alertId) FROM Alert"), "a2")
        let deletes = try String(contentsOfFile: directory + "/reports/deletes.ndjson", encoding: .utf8)
        XCTAssertTrue(deletes.contains("\"entity\":\"Reading\",\"key\":[\"ST1\",\"11\"]"), deletes)
    }

    func testExportAndRestoreKeepEveryPair() throws {
        XCTAssertEqual(try run(readings: "ST1,10,18.5\nST1,11,19\nST2,10,21\n", alerts: "a1,ST1,11\n").status, 0)
        let rows =
            "SELECT group_concat(stationId || '/' || hour || '=' || temperature, ' ') FROM (SELECT * FROM Reading ORDER BY stationId, hour)"
        let stored = try query(rows)
        for format in ["ndjson", "csv", "dynamodb-json"] {
            let archive = directory + "/backup-\(format).tar.zst"
            let export = try ImporterProcess.run([
                "export", directory + "/pipeline.yaml", "--out", archive, "--format", format,
            ])
            XCTAssertEqual(export.status, 0, export.stderr)
            try FileManager.default.removeItem(atPath: directory + "/store.sqlite")
            let restore = try ImporterProcess.run(["restore", archive, directory + "/pipeline.yaml", "--quiet"])
            XCTAssertEqual(restore.status, 0, "\(format): \(restore.stderr)")
            XCTAssertEqual(try query(rows), stored, format)
            XCTAssertEqual(try query("SELECT count(*) FROM pragma_table_info('Reading') WHERE pk > 0"), "2", format)
        }
    }

    /// `kill -9` in the middle, then `--resume`: the same store, versions and counts as an
    /// uninterrupted run, on (hash, range) keys.
    func testAKilledRunResumesToTheStoreOfAnUninterruptedRun() throws {
        var readings = ""
        for index in 0..<60_000 {
            let key = (index &* 7919) % 60_000
            readings += "ST\(key % 300),\(key / 300),\(Double(key % 400) / 10)\n"
            if index % 997 == 0 { readings += "ST\(key % 300),\(key / 300),0\n" }  // a duplicate pair
        }
        func pipeline(_ name: String) throws -> String {
            try """
            model: model.yaml
            sources:
              - { entity: Reading, path: readings.csv }
            destination: { path: \(name).sqlite }
            write: { batchSize: 2000 }
            errors: { maxErrorRatio: 1 }
            report: { directory: reports-\(name) }
            """.write(toFile: directory + "/\(name).yaml", atomically: false, encoding: .utf8)
            return directory + "/\(name).yaml"
        }
        try ("stationId,hour,temperature\n" + readings).write(
            toFile: directory + "/readings.csv", atomically: false, encoding: .utf8)
        let reference = try ImporterProcess.run(["run", try pipeline("reference"), "--quiet"])
        XCTAssertEqual(reference.status, 1, reference.stderr)

        let resumed = try pipeline("resumed")
        let store = directory + "/resumed.sqlite"
        func done() -> Int {
            let state = (try? ImporterProcess.sqlite(store, "SELECT state FROM _importer_checkpoint")) ?? ""
            guard let object = (try? JSONSerialization.jsonObject(with: Data(state.utf8))) as? [String: Any] else {
                return 0
            }
            return object.objects("inputs").first?.int("nextRecord") ?? 0
        }
        let killed = try ImporterProcess.kill(["run", resumed, "--resume", "--quiet"]) { _ in done() >= 20_000 }
        XCTAssertTrue(killed, "the run finished before it could be killed; make it larger")
        XCTAssertGreaterThanOrEqual(done(), 20_000)

        let last = try ImporterProcess.run(["run", resumed, "--resume", "--quiet"])
        XCTAssertEqual(last.status, 1, last.stderr)
        let dump = "SELECT stationId, hour, temperature, version FROM Reading ORDER BY stationId, hour"
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, dump), try ImporterProcess.sqlite(directory + "/reference.sqlite", dump))
        let expected = try ImporterProcess.report(in: directory + "/reports-reference").object("totals")
        let totals = try ImporterProcess.report(in: directory + "/reports-resumed").object("totals")
        for count in ["read", "inserted", "rejected"] { XCTAssertEqual(totals.int(count), expected.int(count), count) }
        XCTAssertEqual(totals.int("rejected"), 61)
    }
}
