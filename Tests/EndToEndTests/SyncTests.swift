import Foundation
import TestSupport
import XCTest

/// `write.mode: sync` through the command line: vanished items are deleted with their cascade,
/// a rejected record keeps its item, and `maxDeletes` refuses before anything is deleted.
final class SyncTests: XCTestCase {
    var directory = ""
    var store: String { directory + "/store.sqlite" }

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    var model: String { ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path }

    func locations(_ name: String, _ rows: [String]) -> String {
        let path = directory + "/" + name
        try! ("locationId,name,latitude,longitude,createdAt\n" + rows.map { $0 + "\n" }.joined())
            .write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func row(_ id: String, latitude: String = "1.5") -> String {
        "\(id),Place \(id),\(latitude),2.5,2024-01-01T00:00:00Z"
    }

    func pipeline(mode: String, maxDeletes: String, locations: String, checkins: String? = nil) -> String {
        let file = directory + "/pipeline-\(UUID().uuidString).yaml"
        var text = "model: \(model)\nsources:\n  - { entity: Location, path: \(locations) }\n"
        if let checkins { text += "  - { entity: Checkin, path: \(checkins) }\n" }
        text +=
            "destination: { path: \(store) }\nwrite: { mode: \(mode), maxDeletes: \(maxDeletes) }\nerrors: { maxErrorRatio: 1 }\n"
        try! text.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    func testSyncDeletesVanishedItemsWithTheirCascadeAndKeepsRejectedOnes() throws {
        let checkins = directory + "/checkins.ndjson"
        try [("c1", "L1"), ("c2", "L4"), ("c3", "L4"), ("c4", "L5")].map {
            "{\"checkinId\":\"\($0.0)\",\"locationId\":\"\($0.1)\",\"checkinTime\":\"2024-02-02T10:00:00Z\"}\n"
        }.joined().write(toFile: checkins, atomically: false, encoding: .utf8)
        let all = locations("all.csv", ["L1", "L2", "L3", "L4", "L5"].map { row($0) })
        let first = try ImporterProcess.run([
            "run", pipeline(mode: "upsert", maxDeletes: "0", locations: all, checkins: checkins),
            "--report-dir", directory + "/r1", "--quiet",
        ])
        XCTAssertEqual(first.status, 0, first.stderr)

        // L4 vanished; L5's row is rejected (latitude out of range), so L5 must stay.
        let fewer = locations("fewer.csv", [row("L1"), row("L2"), row("L3"), row("L5", latitude: "999")])
        let reports = directory + "/r2"
        let sync = try ImporterProcess.run([
            "run", pipeline(mode: "sync", maxDeletes: "2", locations: fewer),
            "--report-dir", reports, "--quiet",
        ])
        XCTAssertEqual(sync.status, 1, "a rejected record: exit 1\n" + sync.stderr)
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, "SELECT locationId FROM \"AWS-Locations\" ORDER BY 1"), "L1\nL2\nL3\nL5")
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, "SELECT checkinId FROM Checkin ORDER BY 1"), "c1\nc4",
            "L4's checkins are deleted by the cascade rule")
        let report = try ImporterProcess.report(in: reports)
        let deletes = report.object("deletes")
        XCTAssertEqual(deletes.object("deleted").int("Location"), 1)
        XCTAssertEqual(deletes.object("deleted").int("Checkin"), 2)
        XCTAssertNil(deletes["refused"])
        let checkinReport = report.objects("entities").first { $0.string("entity") == "Checkin" }
        XCTAssertEqual(checkinReport?.object("counts").int("deleted"), 2)
        XCTAssertTrue(sync.stderr.contains("sync deleted 3 item(s)"), sync.stderr)

        let lines = try String(contentsOfFile: reports + "/deletes.ndjson", encoding: .utf8).split(separator: "\n")
        let deleted = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        XCTAssertEqual(
            Set(deleted.map { "\($0.string("entity")!)/\($0.string("key")!)" }),
            ["Location/L4", "Checkin/c2", "Checkin/c3"])
        XCTAssertEqual(deleted.first { $0.string("key") == "c2" }?.object("cascadedFrom").string("key"), "L4")
    }

    func testValidatePreviewsTheDeletesAndMaxDeletesRefusesBeforeDeletingAnything() throws {
        let all = locations("all.csv", ["L1", "L2", "L3", "L4"].map { row($0) })
        XCTAssertEqual(
            try ImporterProcess.run([
                "run", pipeline(mode: "upsert", maxDeletes: "0", locations: all),
                "--report-dir", directory + "/r1", "--quiet",
            ]).status, 0)
        let one = locations("one.csv", [row("L1"), row("L9")])
        let preview = try ImporterProcess.run([
            "validate", pipeline(mode: "sync", maxDeletes: "3", locations: one),
            "--report-dir", directory + "/preview", "--quiet",
        ])
        XCTAssertEqual(preview.status, 0, preview.stderr)
        XCTAssertTrue(preview.stderr.contains("sync would delete 3 item(s)"), preview.stderr)
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, "SELECT count(*) FROM \"AWS-Locations\""), "4", "validate writes nothing")

        let reports = directory + "/r2"
        let sync = try ImporterProcess.run([
            "run", pipeline(mode: "sync", maxDeletes: "50%", locations: one),
            "--report-dir", reports, "--quiet",
        ])
        XCTAssertEqual(sync.status, 1, sync.stderr)
        XCTAssertTrue(sync.stderr.contains("more than write.maxDeletes (50%)"), sync.stderr)
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, "SELECT group_concat(locationId) FROM (SELECT locationId FROM \"AWS-Locations\" ORDER BY 1)"),
            "L1,L2,L3,L4,L9", "the upsert pass is kept, nothing is deleted")
        let report = try ImporterProcess.report(in: reports)
        XCTAssertTrue(report.object("deletes").string("refused")?.contains("3 of 5 stored Location") == true)
        XCTAssertEqual(report.string("status"), "partial")
    }
}
