import Foundation
import TestSupport
import XCTest

/// `importer run --resume` after `kill -9` (docs/writes.md#resume): killed at several points and resumed each
/// time, an upsert with updates, conflicts, rejections and duplicates ends with exactly the store,
/// the counts and the rejects of an uninterrupted run.
final class ResumeTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    static let baseRows = 100_000
    static let rows = 200_000

    func write(_ text: String, _ name: String) throws {
        try text.write(toFile: directory + "/" + name, atomically: false, encoding: .utf8)
    }

    /// A store holding the locations and `baseRows` checkins, at `path`.
    func makeBaseStore(_ path: String) throws {
        var locations = "locationId,name,latitude,longitude,createdAt\n"
        for index in 0..<100 { locations += "loc-\(index),Place \(index),1.5,2.5,2024-03-01T10:15:30Z\n" }
        try write(locations, "locations.csv")
        var base = "checkinId,locationId,checkinTime,comment,rating\n"
        for key in 0..<Self.baseRows {
            base += "c-\(key),loc-\(key % 100),2024-05-01T08:00:00Z,base \(key),\(key % 5 + 1)\n"
        }
        try write(base, "base.csv")
        let pipeline = try makePipeline("base", store: path, checkins: "base.csv", batchSize: 50_000)
        let result = try ImporterProcess.run(["run", pipeline, "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// Half the keys stored (unchanged, blind updates, matching versions, conflicts), half new;
    /// out of order, with out-of-range ratings and duplicate keys along the way.
    func writeRefresh() throws {
        var text = "checkinId,locationId,checkinTime,comment,rating,version\n"
        text.reserveCapacity(Self.rows * 70)
        for index in 0..<Self.rows {
            let key = (index &* 7919) % Self.rows
            let rating = index % 997 == 0 ? 9 : key % 5 + 1
            var comment = "new \(key)", version = ""
            if key < Self.baseRows {
                switch key % 4 {
                case 0: comment = "base \(key)"
                case 1: comment = "blind \(key)"
                case 2: comment = "based on 1, \(key)"; version = "1"
                default: comment = "conflict \(key)"; version = "7"
                }
            }
            text += "c-\(key),loc-\(key % 100),2024-05-01T08:00:00Z,\"\(comment)\",\(rating),\(version)\n"
            if index % 1009 == 0 { text += "c-\(key),loc-0,2024-06-01T08:00:00Z,duplicate,1,\n" }
        }
        try write(text, "refresh.csv")
    }

    func makePipeline(_ name: String, store: String, checkins: String, batchSize: Int) throws -> String {
        let model = ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        try write(
            """
            model: \(model)
            sources:
              - { entity: Location, path: locations.csv }
              - { entity: Checkin, path: \(checkins) }
            destination: { path: \(store) }
            write: { batchSize: \(batchSize) }
            errors: { maxErrors: 100000, maxErrorRatio: 1 }
            report: { directory: reports-\(name) }
            """, name + ".yaml")
        return directory + "/" + name + ".yaml"
    }

    func dump(_ store: String) throws -> String {
        try ImporterProcess.sqlite(store, "SELECT * FROM \"AWS-Locations\" ORDER BY locationId") + "\n"
            + ImporterProcess.sqlite(store, "SELECT * FROM Checkin ORDER BY checkinId")
    }

    /// Records of the refresh input done according to the store's checkpoint (0 without one).
    func checkpointedRecords(_ store: String) -> Int {
        let state = (try? ImporterProcess.sqlite(store, "SELECT state FROM _importer_checkpoint")) ?? ""
        guard let data = state.data(using: .utf8), !state.isEmpty,
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return 0 }
        return object.objects("inputs").first { $0.string("path")?.hasSuffix("refresh.csv") == true }?.int("nextRecord")
            ?? 0
    }

    func testKilledRunsResumeToTheStoreAndCountsOfAnUninterruptedRun() throws {
        let base = directory + "/base.sqlite"
        try makeBaseStore(base)
        try writeRefresh()

        // The reference: one uninterrupted run.
        let reference = directory + "/reference.sqlite"
        try FileManager.default.copyItem(atPath: base, toPath: reference)
        let referenceRun = try ImporterProcess.run([
            "run", try makePipeline("reference", store: reference, checkins: "refresh.csv", batchSize: 5_000),
            "--quiet",
        ])
        XCTAssertEqual(referenceRun.status, 1, "rejected rows: exit 1\n" + referenceRun.stderr)

        // Killed four times (once almost at once, then deeper each time), resumed after each.
        let store = directory + "/resumed.sqlite"
        try FileManager.default.copyItem(atPath: base, toPath: store)
        let pipeline = try makePipeline("resumed", store: store, checkins: "refresh.csv", batchSize: 5_000)
        var lastCheckpoint = 0
        for target in [0, 30_000, 90_000, 160_000] {
            let killed = try ImporterProcess.kill(
                ["run", pipeline, "--resume", "--quiet"], when: { _ in checkpointedRecords(store) >= target },
                slice: target == 0 ? 150_000 : 5_000)
            XCTAssertTrue(killed, "the run finished before it could be killed; make it larger")
            XCTAssertEqual(try ImporterProcess.sqlite(store, "PRAGMA integrity_check"), "ok")
            let checkpoint = checkpointedRecords(store)
            XCTAssertGreaterThanOrEqual(checkpoint, max(target, lastCheckpoint))
            lastCheckpoint = checkpoint
        }
        XCTAssertGreaterThan(lastCheckpoint, 0)

        let last = try ImporterProcess.run(["run", pipeline, "--resume", "--quiet"])
        XCTAssertEqual(last.status, 1, last.stderr)
        XCTAssertEqual(
            try dump(store), try dump(reference), "every column and every version as in the uninterrupted run")
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, "SELECT count(*) FROM _importer_checkpoint"), "0",
            "a finished run clears its checkpoint")

        let expected = try ImporterProcess.report(in: directory + "/reports-reference")
        let resumed = try ImporterProcess.report(in: directory + "/reports-resumed")
        XCTAssertEqual(
            resumed.object("resumed").int("recordsDone"), lastCheckpoint + 100, "the locations input was done too")
        for counts in ["read", "inserted", "updated", "unchanged", "rejected", "rolledBack", "conflicts"] {
            XCTAssertEqual(resumed.object("totals").int(counts), expected.object("totals").int(counts), counts)
        }
        let totals = resumed.object("totals")
        XCTAssertEqual(totals.int("read"), Self.rows + 100 + (Self.rows + 1008) / 1009)
        XCTAssertGreaterThan(totals.int("updated"), 0)
        XCTAssertGreaterThan(totals.int("conflicts"), 0)
        // Read-stage rejections are found again by reading; write-stage ones (conflicts) come
        // back from the checkpoint: rejects.ndjson lists every one, once.
        func rejects(_ run: String) throws -> [String] {
            try ImporterProcess.rejects(in: directory + "/reports-" + run).map {
                "\($0.int("line")) \($0.string("stage")!) \($0.string("reason")!) \($0.string("key")!) \($0.string("raw")!)"
            }.sorted()
        }
        let resumedRejects = try rejects("resumed")
        XCTAssertEqual(resumedRejects.count, totals.int("rejected"))
        XCTAssertEqual(resumedRejects, try rejects("reference"))
        XCTAssertTrue(resumedRejects.contains { $0.contains(" write conflict ") })
    }

    func testResumeRefusesAChangedInput() throws {
        try makeBaseStore(directory + "/store.sqlite")
        try writeRefresh()
        let pipeline = try makePipeline(
            "refresh", store: directory + "/store.sqlite", checkins: "refresh.csv", batchSize: 5_000)
        let killed = try ImporterProcess.kill(["run", pipeline, "--quiet"]) { _ in
            checkpointedRecords(directory + "/store.sqlite") >= 20_000
        }
        XCTAssertTrue(killed, "the run finished before it could be killed; make it larger")
        let inspect = try ImporterProcess.run(["inspect", pipeline])
        XCTAssertTrue(
            inspect.stdout.contains("interrupted run") && inspect.stdout.contains("refresh.yaml --resume"),
            inspect.stdout)

        let handle = FileHandle(forWritingAtPath: directory + "/refresh.csv")!
        handle.seekToEndOfFile()
        handle.write(Data("c-extra,loc-1,2024-05-01T08:00:00Z,late,1,\n".utf8))
        handle.closeFile()
        let before = try dump(directory + "/store.sqlite")
        let result = try ImporterProcess.run(["run", pipeline, "--resume", "--quiet"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("refresh.csv")
                && result.stderr.contains("the input changed since the interrupted run"), result.stderr)
        XCTAssertEqual(try dump(directory + "/store.sqlite"), before, "nothing is written")
    }
}
