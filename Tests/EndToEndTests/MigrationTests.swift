import Foundation
import TestSupport
import XCTest

/// Schema versions through the command line (docs/migration.md): `model diff`, `migrate` with its dry run,
/// rollback and history, migrate-on-read of older dumps and archives, and edited model files.
final class MigrationTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    static let sample = ImporterProcess.root.appendingPathComponent("SampleData/Locations").path

    /// Every item of both sample entities in model order, with storage types.
    static let locationsV3 =
        #"SELECT locationId, displayName, latitude, longitude, createdAt, active, rating, visits, category, version, typeof(rating), typeof(visits) FROM "AWS-Locations" ORDER BY 1"#
    static let checkinsV3 =
        "SELECT checkinId, locationId, checkinTime, comment, rating, mood, version, typeof(rating) FROM Checkin ORDER BY 1"

    func testTheSampleStoreMigratesOneToThreeAndAgreesWithMigrateOnRead() throws {
        let (a, b, c) = (directory + "/a", directory + "/b", directory + "/c")
        XCTAssertEqual(
            try ImporterProcess.run(["run", "Pipelines/locations.yaml", "--quiet"], environment: ["OUT_DIR": a]).status,
            0)
        let archive = directory + "/v1.tar.zst"
        XCTAssertEqual(
            try ImporterProcess.run(
                ["export", "Pipelines/locations.yaml", "--out", archive], environment: ["OUT_DIR": a]
            ).status, 0)

        let diff = try ImporterProcess.run([
            "model", "diff", Self.sample + "/Model/v1.yaml", Self.sample + "/Model/v3.yaml",
        ])
        XCTAssertEqual(diff.status, 0, diff.stderr)
        for expected in [
            "title          renamed from name", "visits         widened int32 → int64",
            "category       added (default uncategorized)",
            "mood           converted: map rating", "displayName    renamed from title", "Checkin (unchanged)",
        ] {
            XCTAssertTrue(diff.stdout.contains(expected), "\(expected) in:\n\(diff.stdout)")
        }
        XCTAssertEqual(try ImporterProcess.run(["model", "check", Self.sample + "/Model"]).status, 0)

        let store = a + "/locations.sqlite"
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let stale = try ImporterProcess.run(
            ["run", "Pipelines/migrate-locations.yaml", "--quiet"], environment: ["OUT_DIR": a])
        XCTAssertEqual(stale.status, 2)
        XCTAssertTrue(stale.stderr.contains("importer migrate PIPELINE --to 3"), stale.stderr)

        let dryRun = try ImporterProcess.run(
            ["migrate", "Pipelines/migrate-locations.yaml", "--dry-run"], environment: ["OUT_DIR": a])
        XCTAssertEqual(dryRun.status, 0, dryRun.stderr)
        XCTAssertTrue(dryRun.stderr.contains("Locations 1 → 2: 4500 items, 0 would fail"), dryRun.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), before, "a dry run changes nothing")

        let migrate = try ImporterProcess.run(
            ["migrate", "Pipelines/migrate-locations.yaml", "--quiet"], environment: ["OUT_DIR": a])
        XCTAssertEqual(migrate.status, 0, migrate.stderr)
        XCTAssertEqual(try ImporterProcess.sqlite(store, "SELECT value FROM _importer_meta WHERE key = 'version'"), "3")
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, "SELECT from_version, to_version, items, success FROM _importer_migrations ORDER BY id"),
            "1|2|4500|1\n2|3|4500|1")
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store,
                "SELECT count(*) FROM Checkin WHERE rating IN (1, 2) AND mood IS NOT 'bad' OR rating IS NULL AND mood IS NOT NULL"
            ), "0")
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, #"SELECT count(*), sum(category = 'uncategorized') FROM "AWS-Locations""#), "500|500")
        XCTAssertEqual(try ImporterProcess.sqlite(store, "SELECT count(*) FROM Checkin"), "4000")

        // The version 1 dumps, migrated as they are read, into a new store: the same items.
        XCTAssertEqual(
            try ImporterProcess.run(
                ["run", "Pipelines/migrate-locations.yaml", "--quiet"], environment: ["OUT_DIR": b]
            ).status, 0)
        // The version 1 archive, migrated as it is restored: the same items again.
        let restore = try ImporterProcess.run(
            ["restore", archive, "Pipelines/migrate-locations.yaml", "--quiet"], environment: ["OUT_DIR": c])
        XCTAssertEqual(restore.status, 0, restore.stderr)
        for query in [Self.locationsV3, Self.checkinsV3] {
            let migrated = try ImporterProcess.sqlite(store, query)
            XCTAssertTrue(
                migrated.hasPrefix(query.contains("Checkin") ? "chk-000001|loc-00126|" : "loc-00001|Café Zoë ☕|"),
                migrated)
            XCTAssertEqual(try ImporterProcess.sqlite(b + "/locations.sqlite", query), migrated)
            XCTAssertEqual(try ImporterProcess.sqlite(c + "/locations.sqlite", query), migrated)
        }

        // The migrated store, refreshed from the version 1 dumps: nothing changes.
        XCTAssertEqual(
            try ImporterProcess.run(
                ["run", "Pipelines/migrate-locations.yaml", "--quiet"], environment: ["OUT_DIR": a]
            ).status, 0)
        let totals = try ImporterProcess.report(in: a + "/reports/migrate-locations").object("totals")
        XCTAssertEqual(totals.int("unchanged"), 4500)
    }

    /// A model directory: the sample's version 1 and a version 2 whose mood map misses rating 5.
    func modelWithAFailingStep() throws -> (pinned: String, latest: String) {
        let model = directory + "/Model"
        try FileManager.default.createDirectory(atPath: model, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.sample + "/Model/v1.yaml", toPath: model + "/v1.yaml")
        let v2 = try String(contentsOfFile: Self.sample + "/Model/v2.yaml", encoding: .utf8)
            .replacingOccurrences(of: #", "5": good }"#, with: " }")
        XCTAssertTrue(v2.contains(#""4": good }"#))
        try v2.write(toFile: model + "/v2.yaml", atomically: false, encoding: .utf8)
        var paths: [String] = []
        for (name, pin) in [("pinned", "modelVersion: 1\n"), ("latest", "")] {
            let path = directory + "/\(name).yaml"
            try """
            model: \(model)
            \(pin)sources:
              - { entity: Location, path: \(Self.sample)/locations.csv, modelVersion: 1 }
              - { entity: Checkin, path: \(Self.sample)/checkins.ndjson, modelVersion: 1 }
            destination: { path: \(directory)/store.sqlite }
            report: { directory: \(directory)/reports }
            """.write(toFile: path, atomically: false, encoding: .utf8)
            paths.append(path)
        }
        return (paths[0], paths[1])
    }

    /// The store's items, schema and recorded model (not its history, which records failures).
    func snapshot() throws -> String {
        let store = directory + "/store.sqlite"
        return try [
            "SELECT sql FROM sqlite_master WHERE name IN ('AWS-Locations', 'Checkin') ORDER BY name",
            "SELECT key, value FROM _importer_meta ORDER BY key",
            #"SELECT *, typeof(visits) FROM "AWS-Locations" ORDER BY locationId"#,
            "SELECT * FROM Checkin ORDER BY checkinId",
        ].map { try ImporterProcess.sqlite(store, $0) }.joined(separator: "\n--\n")
    }

    func testAnItemThatCannotBeMigratedRollsEverythingBackOrIsLeftOutWhenAllowed() throws {
        let (pinned, latest) = try modelWithAFailingStep()
        XCTAssertEqual(try ImporterProcess.run(["run", pinned, "--quiet"]).status, 0)
        let store = directory + "/store.sqlite"
        let failing = try ImporterProcess.sqlite(store, "SELECT checkinId FROM Checkin WHERE rating = 5 ORDER BY 1")
            .split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(failing.count, 100)
        let checkins = Int(try ImporterProcess.sqlite(store, "SELECT count(*) FROM Checkin"))!
        let before = try snapshot()

        let dryRun = try ImporterProcess.run(["migrate", latest, "--dry-run"])
        XCTAssertEqual(dryRun.status, 1, dryRun.stderr)
        XCTAssertTrue(
            dryRun.stderr.contains(
                "Locations 1 → 2: \(500 + checkins - failing.count) items, \(failing.count) would fail"), dryRun.stderr)
        XCTAssertEqual(try snapshot(), before)

        let failed = try ImporterProcess.run(["migrate", latest])
        XCTAssertEqual(failed.status, 3, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("rolled back: \(failing.count) items cannot be migrated"), failed.stderr)
        XCTAssertTrue(
            failed.stderr.contains("mood (migrating to version 2): rating '5' has no entry in convert.map"),
            failed.stderr)
        XCTAssertEqual(try snapshot(), before, "the failed migration left the store exactly as it was")
        let rejects = try ImporterProcess.rejects(in: directory + "/reports")
        XCTAssertEqual(rejects.map { $0.string("key") ?? "" }.sorted(), failing)
        XCTAssertEqual(
            Set(rejects.map { "\($0.string("entity")!) \($0.string("reason")!) \($0.string("field")!)" }),
            ["Checkin conversion mood"])
        XCTAssertEqual((rejects[0]["item"] as? [String: Any])?["rating"] as? Int, 5, "the item as stored at version 1")
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, "SELECT from_version, to_version, items, success FROM _importer_migrations"),
            "1|2|\(failing.count)|0")

        let allowed = try ImporterProcess.run(["migrate", latest, "--allow-rejects", "--quiet"])
        XCTAssertEqual(allowed.status, 1, allowed.stderr)
        XCTAssertEqual(try ImporterProcess.sqlite(store, "SELECT value FROM _importer_meta WHERE key = 'version'"), "2")
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, "SELECT count(*), sum(rating = 5) FROM Checkin"),
            "\(checkins - failing.count)|0")
        XCTAssertEqual(try ImporterProcess.rejects(in: directory + "/reports").count, failing.count)
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, "SELECT success, note FROM _importer_migrations ORDER BY id DESC LIMIT 1"),
            "1|\(failing.count) items left out (--allow-rejects), see rejects.ndjson")
        let report =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: directory + "/reports/migration.json"))) as! [String: Any]
        XCTAssertEqual(report.string("status"), "migratedWithRejects")
        // report.html beside it: the status and each step's figures as text.
        let page = try String(contentsOfFile: directory + "/reports/report.html", encoding: .utf8)
        XCTAssertTrue(page.contains("migratedWithRejects</span>"), page)
        let step = (report["steps"] as! [[String: Any]])[0]
        XCTAssertTrue(page.contains("data-figure=\"step.2.failed\">\(step.int("failed"))<"), page)
        XCTAssertEqual(step.int("failed"), failing.count)
    }

    func testAnEditedModelVersionIsRefusedUntilTheChangeIsAccepted() throws {
        let (pinned, latest) = try modelWithAFailingStep()
        XCTAssertEqual(try ImporterProcess.run(["run", pinned, "--quiet"]).status, 0)
        let v1 = directory + "/Model/v1.yaml"
        try String(contentsOfFile: v1, encoding: .utf8).replacingOccurrences(
            of: "maxLength: 200", with: "maxLength: 250"
        )
        .write(toFile: v1, atomically: false, encoding: .utf8)
        for arguments in [["run", pinned, "--quiet"], ["migrate", latest, "--dry-run"]] {
            let refused = try ImporterProcess.run(arguments)
            XCTAssertEqual(refused.status, 2, "\(arguments): \(refused.stderr)")
            XCTAssertTrue(
                refused.stderr.contains(
                    "v1.yaml: model Locations version 1 differs from the version 1 recorded in \(directory)/store.sqlite"
                ), refused.stderr)
            XCTAssertTrue(refused.stderr.contains("--accept-model-change"), refused.stderr)
        }
        let store = directory + "/store.sqlite"
        XCTAssertEqual(try ImporterProcess.sqlite(store, "SELECT count(*) FROM _importer_migrations"), "0")
        XCTAssertEqual(try ImporterProcess.run(["run", pinned, "--quiet", "--accept-model-change"]).status, 0)
        XCTAssertTrue(
            try ImporterProcess.sqlite(
                store, "SELECT from_version, to_version, success, note FROM _importer_migrations"
            )
            .hasPrefix("1|1|1|accepted a changed model file \(v1)"))
        XCTAssertEqual(
            try ImporterProcess.run(["run", pinned, "--quiet"]).status, 0,
            "accepted once, the store knows the new checksum")
    }
}
