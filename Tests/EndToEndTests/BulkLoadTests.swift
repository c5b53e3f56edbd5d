import Foundation
import TestSupport
import XCTest

/// The bulk path (an empty table staged, then built in one statement): the same store, counts and
/// rejects as the record-by-record path, whatever the run meets (duplicates, rejections,
/// version conflicts, missing references), also when killed and resumed at any point.
final class BulkLoadTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    static let rows = 100_000

    func write(_ text: String, _ name: String) throws {
        try text.write(toFile: directory + "/" + name, atomically: false, encoding: .utf8)
    }

    /// Locations, and check-ins in random key order with out-of-range ratings, duplicate keys,
    /// records based on a version that is not stored, and references to no location.
    func writeInputs() throws {
        var locations = "locationId,name,latitude,longitude,createdAt\n"
        for index in 0..<100 { locations += "loc-\(index),Place \(index),1.5,2.5,2024-03-01T10:15:30Z\n" }
        try write(locations, "locations.csv")
        var text = "checkinId,locationId,checkinTime,comment,rating,version\n"
        text.reserveCapacity(Self.rows * 70)
        for index in 0..<Self.rows {
            let key = (index &* 7919) % Self.rows
            let rating = index % 997 == 0 ? 9 : key % 5 + 1
            let location = index % 1013 == 0 ? "loc-missing" : "loc-\(key % 100)"
            let version = key % 503 == 0 ? "7" : ""
            text += "c-\(key),\(location),2024-05-01T08:00:00Z,\"comment, \(key)\",\(rating),\(version)\n"
            if index % 1009 == 0 { text += "c-\(key),loc-0,2024-06-01T08:00:00Z,duplicate,1,\n" }
        }
        try write(text, "checkins.csv")
    }

    func makePipeline(_ name: String, bulk: Bool = true, atomic: Bool = false, maxErrors: Int = 100_000) throws
        -> String
    {
        let model = ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        try write(
            """
            model: \(model)
            sources:
              - { entity: Location, path: locations.csv }
              - { entity: Checkin, path: checkins.csv }
            destination: { path: \(name).sqlite }
            write: { batchSize: 5000, bulk: \(bulk), atomic: \(atomic) }
            errors: { maxErrors: \(maxErrors), maxErrorRatio: 1 }
            report: { directory: reports-\(name) }
            """, name + ".yaml")
        return directory + "/" + name + ".yaml"
    }

    func store(_ name: String) -> String { directory + "/" + name + ".sqlite" }

    /// The definitions of the entities' tables and indexes, and of any staged table left.
    func schema(_ name: String) throws -> String {
        try ImporterProcess.sqlite(
            store(name),
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE '\\_importer\\_%' ESCAPE '\\' OR name LIKE '\\_importer\\_staged%' ESCAPE '\\' ORDER BY name"
        )
    }

    func dump(_ name: String) throws -> String {
        try ImporterProcess.sqlite(store(name), "SELECT * FROM \"AWS-Locations\" ORDER BY locationId") + "\n"
            + ImporterProcess.sqlite(store(name), "SELECT * FROM Checkin ORDER BY checkinId")
    }

    func rejects(_ name: String) throws -> [String] {
        try ImporterProcess.rejects(in: directory + "/reports-" + name).map {
            "\($0.int("line")) \($0.string("stage")!) \($0.string("reason")!) \($0.string("key") ?? "-") \($0.string("raw")!)"
        }
    }

    func writePaths(_ name: String) throws -> [String] {
        try ImporterProcess.report(in: directory + "/reports-" + name).objects("entities").map {
            $0.string("writePath") ?? "none"
        }
    }

    /// Records of checkins.csv done according to the store's checkpoint (0 without one).
    func checkpointedRecords(_ name: String) -> Int {
        let state = (try? ImporterProcess.sqlite(store(name), "SELECT state FROM _importer_checkpoint")) ?? ""
        guard let data = state.data(using: .utf8), !state.isEmpty,
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return 0 }
        return object.objects("inputs").first { $0.string("path")?.hasSuffix("checkins.csv") == true }?.int(
            "nextRecord") ?? 0
    }

    /// Stored check-ins whose row comes after a row of a check-in that came later in the input.
    func rowsOutOfInputOrder(_ name: String) throws -> Int {
        var position: [String: Int] = [:]
        for index in 0..<Self.rows { position["c-\((index &* 7919) % Self.rows)"] = index }
        let keys = try ImporterProcess.sqlite(store(name), "SELECT checkinId FROM Checkin ORDER BY rowid").split(
            separator: "\n")
        return zip(keys, keys.dropFirst()).filter { position[String($0)]! > position[String($1)]! }.count
    }

    func assertSameRun(_ name: String, as reference: String, file: StaticString = #filePath, line: UInt = #line) throws
    {
        XCTAssertEqual(try dump(name), try dump(reference), "every column and version", file: file, line: line)
        let expected = try ImporterProcess.report(in: directory + "/reports-" + reference).object("totals")
        let totals = try ImporterProcess.report(in: directory + "/reports-" + name).object("totals")
        for counts in ["read", "inserted", "updated", "unchanged", "rejected", "rolledBack", "conflicts"] {
            XCTAssertEqual(totals.int(counts), expected.int(counts), counts, file: file, line: line)
        }
        XCTAssertEqual(try rejects(name).sorted(), try rejects(reference).sorted(), file: file, line: line)
    }

    func testABulkLoadStoresWhatRecordByRecordWritesStore() throws {
        try writeInputs()
        let incremental = try ImporterProcess.run(["run", try makePipeline("incremental", bulk: false), "--quiet"])
        XCTAssertEqual(incremental.status, 1, "rejected rows: exit 1\n" + incremental.stderr)
        XCTAssertEqual(try writePaths("incremental"), ["incremental", "incremental"])

        let bulk = try ImporterProcess.run(["run", try makePipeline("bulk"), "--quiet"])
        XCTAssertEqual(bulk.status, 1, bulk.stderr)
        XCTAssertEqual(try writePaths("bulk"), ["bulk", "bulk"])
        try assertSameRun("bulk", as: "incremental")
        XCTAssertEqual(try rejects("bulk"), try rejects("incremental"), "rejects in input order")
        let reasons = Set(try rejects("bulk").map { $0.split(separator: " ")[2] })
        XCTAssertEqual(reasons, ["range", "duplicate", "conflict", "reference"])
        XCTAssertEqual(try rowsOutOfInputOrder("bulk"), 0, "rows are stored in input order")
        XCTAssertEqual(try ImporterProcess.sqlite(store("bulk"), "PRAGMA integrity_check"), "ok")
        XCTAssertEqual(
            try schema("bulk"), try schema("incremental"),
            "the staged tables were adopted as the tables record-by-record writes create")
        XCTAssertEqual(
            try ImporterProcess.sqlite(store("bulk"), "SELECT name, origin FROM pragma_index_list('Checkin')"),
            "sqlite_autoindex_Checkin_1|pk")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: store("bulk") + ".bulk"), "no staging file beside the store")

        // The table is no longer empty: a second run writes record by record, and finds everything unchanged.
        let rerun = try ImporterProcess.run(["run", try makePipeline("bulk"), "--quiet"])
        XCTAssertEqual(rerun.status, 1, rerun.stderr)
        XCTAssertEqual(try writePaths("bulk"), ["incremental", "incremental"])
        let totals = try ImporterProcess.report(in: directory + "/reports-bulk").object("totals")
        XCTAssertEqual(totals.int("inserted") + totals.int("updated"), 0)

        // An atomic run stages and builds in its one transaction.
        let atomic = try ImporterProcess.run(["run", try makePipeline("atomic", atomic: true), "--quiet"])
        XCTAssertEqual(atomic.status, 1, atomic.stderr)
        XCTAssertEqual(try writePaths("atomic"), ["bulk", "bulk"])
        try assertSameRun("atomic", as: "incremental")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store("atomic") + ".bulk"))

        // A table an older version created (its key without `ON CONFLICT ABORT`) cannot take the
        // staged table as it is: it is built by a sort, rows in key order, with the same outcome.
        _ = try ImporterProcess.sqlite(
            store("older"),
            """
            CREATE TABLE "Checkin" ("checkinId" TEXT NOT NULL PRIMARY KEY, "locationId" TEXT, "checkinTime" TEXT, \
            "comment" TEXT, "rating" INTEGER, "version" INTEGER NOT NULL)
            """)
        let older = try ImporterProcess.run(["run", try makePipeline("older"), "--quiet"])
        XCTAssertEqual(older.status, 1, older.stderr)
        XCTAssertEqual(try writePaths("older"), ["bulk", "bulk"])
        try assertSameRun("older", as: "incremental")
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store("older"),
                """
                SELECT count(*) FROM (SELECT checkinId, lag(checkinId) OVER (ORDER BY rowid) AS previous FROM Checkin) WHERE previous > checkinId
                """), "0", "rows in key order")
    }

    /// A dump sorted by its key is built from its rows as staged, without a sort; one key out of
    /// place at its end sends it the sorting way. Either way the store is the record-by-record one.
    func testADumpInKeyOrderStoresWhatRecordByRecordWritesStore() throws {
        try write(
            "locationId,name,createdAt\n" + (0..<100).map { "loc-\($0),Place \($0),2024-03-01T10:15:30Z\n" }.joined(),
            "locations.csv")
        let sorted =
            "checkinId,locationId,checkinTime,comment,rating,version\n"
            + (0..<20_000).map { String(format: "c-%06d,loc-%d,2024-05-01T08:00:00Z,,%d,\n", $0, $0 % 100, $0 % 5 + 1) }
            .joined()
        for (name, tail) in [("ordered", ""), ("nearly", "b-late,loc-1,2024-05-01T08:00:00Z,,3,\n")] {
            try write(sorted + tail, "checkins.csv")
            let incremental = try ImporterProcess.run([
                "run", try makePipeline(name + "-incremental", bulk: false), "--quiet",
            ])
            XCTAssertEqual(incremental.status, 0, incremental.stderr)
            let bulk = try ImporterProcess.run(["run", try makePipeline(name), "--quiet"])
            XCTAssertEqual(bulk.status, 0, bulk.stderr)
            XCTAssertEqual(try writePaths(name), ["bulk", "bulk"])
            try assertSameRun(name, as: name + "-incremental")
            XCTAssertEqual(
                try ImporterProcess.sqlite(store(name), "SELECT count(*) FROM Checkin"),
                String(20_000 + (tail.isEmpty ? 0 : 1)))
            XCTAssertEqual(try ImporterProcess.sqlite(store(name), "PRAGMA integrity_check"), "ok")
        }
    }

    func testAnAtomicBulkLoadPastTheErrorLimitStoresNothing() throws {
        try writeInputs()
        let aborted = try ImporterProcess.run([
            "run", try makePipeline("aborted", atomic: true, maxErrors: 10), "--quiet",
        ])
        XCTAssertEqual(aborted.status, 3, aborted.stderr)
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store("aborted"), "SELECT (SELECT count(*) FROM Checkin) + (SELECT count(*) FROM \"AWS-Locations\")"),
            "0")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store("aborted") + ".bulk"))
        let totals = try ImporterProcess.report(in: directory + "/reports-aborted").object("totals")
        XCTAssertEqual(totals.int("inserted"), 0)
        XCTAssertGreaterThan(totals.int("rolledBack") + totals.int("notWritten"), 0)
        XCTAssertEqual(totals.int("read"), totals.int("rejected") + totals.int("rolledBack") + totals.int("notWritten"))
    }

    func testKilledBulkLoadsResumeToTheStoreOfAnUninterruptedRun() throws {
        try writeInputs()
        XCTAssertEqual(try ImporterProcess.run(["run", try makePipeline("reference"), "--quiet"]).status, 1)

        // Killed at once, deeper each time, and once every record is staged (the table is
        // being built then); resumed after each.
        let pipeline = try makePipeline("resumed")
        let staged = Self.rows + (Self.rows + 1008) / 1009
        var lastCheckpoint = 0
        for target in [0, 20_000, 60_000, staged] {
            var wrote = false
            let killed = try ImporterProcess.kill(
                ["run", pipeline, "--resume", "--quiet"],
                when: { pid in
                    guard target == staged else { return checkpointedRecords("resumed") >= target }
                    // Once the write stage's thread has ended, while the build's transaction is
                    // open: a first import stages and builds under a rollback journal, whose file
                    // is there until the build commits (the build takes tens of milliseconds).
                    let threads = ThreadNames.of(pid)
                    if threads["write stage"] != nil { wrote = true }
                    return wrote && threads["write stage"] == nil
                        && FileManager.default.fileExists(atPath: store("resumed") + "-journal")
                }, slice: target == 0 ? 150_000 : target == staged ? 500 : 5_000)
            XCTAssertTrue(killed, "the run finished before it could be killed; make it larger")
            XCTAssertEqual(try ImporterProcess.sqlite(store("resumed"), "PRAGMA integrity_check"), "ok")
            XCTAssertEqual(
                try ImporterProcess.sqlite(store("resumed"), "SELECT count(*) FROM Checkin"), "0",
                "the table is built at the end only")
            // Staged in the store, each committed row counted with the checkpoint.
            XCTAssertFalse(FileManager.default.fileExists(atPath: store("resumed") + ".bulk"))
            if target > 0 {
                XCTAssertEqual(
                    try ImporterProcess.sqlite(store("resumed"), "SELECT count(*) FROM _importer_staged_Checkin"),
                    try ImporterProcess.sqlite(
                        store("resumed"), "SELECT staged FROM _importer_bulk WHERE entity = 'Checkin'"))
            }
            let checkpoint = checkpointedRecords("resumed")
            XCTAssertGreaterThanOrEqual(checkpoint, max(target, lastCheckpoint))
            lastCheckpoint = checkpoint
        }
        XCTAssertEqual(lastCheckpoint, staged)

        // The last resume has bulk loads turned off: it still builds what the interrupted run staged.
        _ = try makePipeline("resumed", bulk: false)
        let last = try ImporterProcess.run(["run", pipeline, "--resume", "--quiet"])
        XCTAssertEqual(last.status, 1, last.stderr)
        XCTAssertEqual(try writePaths("resumed"), ["bulk", "bulk"])
        try assertSameRun("resumed", as: "reference")
        XCTAssertEqual(try ImporterProcess.sqlite(store("resumed"), "SELECT count(*) FROM _importer_checkpoint"), "0")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store("resumed") + ".bulk"))
        XCTAssertEqual(try schema("resumed"), try schema("reference"), "no staged table left")
    }

    /// Killed while the key index is written from the keys kept while staging (its ranges still
    /// being sorted), then resumed: the store of an uninterrupted run, its index SQLite's own.
    func testABulkLoadKilledWhileItsKeyIndexIsWrittenResumes() throws {
        try writeInputs()
        XCTAssertEqual(try ImporterProcess.run(["run", try makePipeline("reference"), "--quiet"]).status, 1)
        let pipeline = try makePipeline("killed")
        let killed = try ImporterProcess.kill(
            ["run", pipeline, "--quiet"],
            when: { pid in
                ThreadNames.of(pid)["key sort"] != nil
            }, slice: 500)
        XCTAssertTrue(killed, "the run finished before it could be killed; make it larger")
        XCTAssertEqual(try ImporterProcess.sqlite(store("killed"), "PRAGMA integrity_check"), "ok")
        XCTAssertEqual(
            try ImporterProcess.sqlite(store("killed"), "SELECT count(*) FROM Checkin"), "0",
            "the build's transaction, key table and all, rolled back")

        let resumed = try ImporterProcess.run(["run", pipeline, "--resume", "--quiet"])
        XCTAssertEqual(resumed.status, 1, resumed.stderr)
        try assertSameRun("killed", as: "reference")
        XCTAssertEqual(try schema("killed"), try schema("reference"))
        XCTAssertEqual(try ImporterProcess.sqlite(store("killed"), "PRAGMA integrity_check"), "ok")
    }

    /// A run that starts over after a killed bulk load, here record by record, drops what the
    /// bulk load staged, and stores what an uninterrupted run stores.
    func testARunThatStartsOverDropsWhatAKilledBulkLoadStaged() throws {
        try writeInputs()
        XCTAssertEqual(try ImporterProcess.run(["run", try makePipeline("reference"), "--quiet"]).status, 1)
        let pipeline = try makePipeline("again")
        let killed = try ImporterProcess.kill(["run", pipeline, "--quiet"]) { _ in
            checkpointedRecords("again") >= 20_000
        }
        XCTAssertTrue(killed, "the run finished before it could be killed; make it larger")
        XCTAssertGreaterThan(
            Int(try ImporterProcess.sqlite(store("again"), "SELECT count(*) FROM _importer_staged_Checkin")) ?? 0, 0)

        _ = try makePipeline("again", bulk: false)
        let again = try ImporterProcess.run(["run", pipeline, "--quiet"])
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertEqual(try writePaths("again"), ["incremental", "incremental"])
        try assertSameRun("again", as: "reference")
        XCTAssertEqual(try schema("again"), try schema("reference"), "the staged tables of the killed run are gone")
        XCTAssertEqual(try ImporterProcess.sqlite(store("again"), "PRAGMA integrity_check"), "ok")
    }
}
