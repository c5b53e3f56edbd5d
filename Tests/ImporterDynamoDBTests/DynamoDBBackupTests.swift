import Foundation
import TestSupport
import XCTest

/// Backups across stores (docs/archives.md): SQLite → archive → DynamoDB → archive → SQLite, through
/// the command line against moto. Counts, item contents and versions survive every step.
final class DynamoDBBackupTests: MotoTestCase {
    func testSQLiteArchiveRestoredIntoDynamoDBExportsTheSameItemsAndVersions() throws {
        let server = try server()
        let out = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let environment = ImporterBinary.environment(server).merging(["OUT_DIR": out, "TABLE_PREFIX": "backup-"]) { $1 }

        // The sample into SQLite, with some items at later versions.
        let load = try ImporterBinary.run(["run", "Pipelines/locations.yaml", "--quiet"], environment: environment)
        XCTAssertEqual(load.status, 0, load.output)
        let sqliteStore = out + "/locations.sqlite"
        _ = try CommandLineTools.sqlite(
            sqliteStore,
            "UPDATE Checkin SET version = 1 + rowid % 4; UPDATE \"AWS-Locations\" SET version = 1 + rowid % 3")

        let fromSQLite = out + "/from-sqlite.tar.gz"
        let first = try ImporterBinary.run(
            ["export", "Pipelines/locations.yaml", "--out", fromSQLite], environment: environment)
        XCTAssertEqual(first.status, 0, first.output)

        let restore = try ImporterBinary.run(
            ["restore", fromSQLite, "Pipelines/locations-dynamodb.yaml", "--quiet"], environment: environment)
        XCTAssertEqual(restore.status, 0, restore.output)
        XCTAssertEqual(
            try ImporterBinary.report(out + "/reports/locations-dynamodb").number("totals", "inserted"), 4500,
            restore.output)

        let fromDynamoDB = out + "/from-dynamodb.tar.zst"
        let second = try ImporterBinary.run(
            ["export", "Pipelines/locations-dynamodb.yaml", "--out", fromDynamoDB], environment: environment)
        XCTAssertEqual(second.status, 0, second.output)

        let a = try CommandLineTools.unpack(fromSQLite, into: out + "/a"),
            b = try CommandLineTools.unpack(fromDynamoDB, into: out + "/b")
        let manifestA = try CommandLineTools.manifest(a), manifestB = try CommandLineTools.manifest(b)
        XCTAssertEqual(manifestA.object("model") as NSDictionary, manifestB.object("model") as NSDictionary)
        XCTAssertEqual(manifestA.string("source"), "sqlite")
        XCTAssertEqual(manifestB.string("source"), "dynamodb")
        let entitiesA = manifestA.objects("entities"), entitiesB = manifestB.objects("entities")
        XCTAssertEqual(entitiesA.map { $0["entity"] as? String }, ["Location", "Checkin"])
        XCTAssertEqual(entitiesA.map { $0["items"] as? Int }, [500, 4000])
        XCTAssertEqual(entitiesA.map { $0["entity"] as? String }, entitiesB.map { $0["entity"] as? String })
        XCTAssertEqual(entitiesA.map { $0["items"] as? Int }, entitiesB.map { $0["items"] as? Int })
        for (fileA, fileB) in zip(entitiesA, entitiesB) {
            // A scan returns items in another order than SQLite: the same lines, sorted, byte for byte.
            let linesA = try String(contentsOfFile: a + "/" + (fileA["file"] as! String), encoding: .utf8).split(
                separator: "\n"
            ).sorted()
            let linesB = try String(contentsOfFile: b + "/" + (fileB["file"] as! String), encoding: .utf8).split(
                separator: "\n"
            ).sorted()
            XCTAssertEqual(linesA.count, fileA["items"] as? Int)
            XCTAssertTrue(linesA == linesB, "\(fileA["entity"]!): the items differ")
        }

        // And back into a new SQLite store: the same rows as the first, versions included.
        let back = try ImporterBinary.run(
            ["restore", fromDynamoDB, "Pipelines/locations.yaml", "--quiet"],
            environment: environment.merging(["OUT_DIR": out + "/back"]) { $1 })
        XCTAssertEqual(back.status, 0, back.output)
        for table in ["\"AWS-Locations\"", "Checkin"] {
            let query = "SELECT * FROM \(table) ORDER BY 1"
            XCTAssertEqual(
                try CommandLineTools.sqlite(out + "/back/locations.sqlite", query),
                try CommandLineTools.sqlite(sqliteStore, query), table)
        }
        XCTAssertEqual(
            try CommandLineTools.sqlite(
                out + "/back/locations.sqlite",
                "SELECT group_concat(DISTINCT version) FROM (SELECT version FROM Checkin ORDER BY 1)"), "1,2,3,4")
    }

    /// References the exporting store held that name nothing (here: Locations deleted behind
    /// the importer's back) are restored into DynamoDB as they are, counted kept, not rejected.
    func testReferencesThatNameNothingAreRestoredIntoDynamoDBAsTheyWere() throws {
        let server = try server()
        let out = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let environment = ImporterBinary.environment(server).merging(["OUT_DIR": out, "TABLE_PREFIX": "dangling-"]) {
            $1
        }
        let load = try ImporterBinary.run(["run", "Pipelines/locations.yaml", "--quiet"], environment: environment)
        XCTAssertEqual(load.status, 0, load.output)
        let sqliteStore = out + "/locations.sqlite"
        _ = try CommandLineTools.sqlite(sqliteStore, "DELETE FROM \"AWS-Locations\" WHERE rowid % 10 = 0")
        let dangling =
            Int(
                try CommandLineTools.sqlite(
                    sqliteStore,
                    "SELECT count(*) FROM Checkin WHERE locationId NOT IN (SELECT locationId FROM \"AWS-Locations\")"))
            ?? 0
        XCTAssertGreaterThan(dangling, 300)

        let archive = out + "/dangling.tar.gz"
        let export = try ImporterBinary.run(
            ["export", "Pipelines/locations.yaml", "--out", archive], environment: environment)
        XCTAssertEqual(export.status, 0, export.output)
        let restore = try ImporterBinary.run(
            ["restore", archive, "Pipelines/locations-dynamodb.yaml", "--quiet"], environment: environment)
        XCTAssertEqual(restore.status, 0, restore.output)
        let report = try ImporterBinary.report(out + "/reports/locations-dynamodb")
        XCTAssertEqual(report.number("totals", "inserted"), 4450, restore.output)
        XCTAssertEqual(report.number("totals", "rejected"), 0, restore.output)
        let checkin = (report["entities"] as? [[String: Any]])?.first { $0["entity"] as? String == "Checkin" }
        let location = (checkin?["references"] as? [String: Any])?["location"] as? [String: Any]
        XCTAssertEqual(location?["action"] as? String, "keep")
        XCTAssertEqual(location?["missing"] as? Int, dangling)
    }

    /// Migrate-on-read into DynamoDB: a version 1 archive restored into version 3 tables holds
    /// what a SQLite store migrated from 1 to 3 holds; tables of version 1 are not read as 3.
    func testAVersionOneArchiveRestoresIntoVersionThreeTables() throws {
        let server = try server()
        let out = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let environment = ImporterBinary.environment(server).merging(["OUT_DIR": out]) { $1 }
        XCTAssertEqual(
            try ImporterBinary.run(["run", "Pipelines/locations.yaml", "--quiet"], environment: environment).status, 0)
        let v1 = out + "/v1.tar.gz"
        XCTAssertEqual(
            try ImporterBinary.run(["export", "Pipelines/locations.yaml", "--out", v1], environment: environment)
                .status, 0)

        let latest = "Pipelines/migrate-locations-dynamodb.yaml"  // the newest version
        let v3Tables = environment.merging(["TABLE_PREFIX": "v3-"]) { $1 }
        let restore = try ImporterBinary.run(["restore", v1, latest, "--quiet"], environment: v3Tables)
        XCTAssertEqual(restore.status, 0, restore.output)
        let fromDynamoDB = out + "/v3-dynamodb.tar.gz"
        XCTAssertEqual(
            try ImporterBinary.run(["export", latest, "--out", fromDynamoDB], environment: v3Tables).status, 0)

        XCTAssertEqual(
            try ImporterBinary.run(
                ["migrate", "Pipelines/migrate-locations.yaml", "--quiet"], environment: environment
            ).status, 0)
        let fromSQLite = out + "/v3-sqlite.tar.gz"
        XCTAssertEqual(
            try ImporterBinary.run(
                ["export", "Pipelines/migrate-locations.yaml", "--out", fromSQLite], environment: environment
            ).status, 0)
        let a = try CommandLineTools.unpack(fromSQLite, into: out + "/a"),
            b = try CommandLineTools.unpack(fromDynamoDB, into: out + "/b")
        XCTAssertEqual(try CommandLineTools.manifest(b).object("model")["version"] as? Int, 3)
        for file in ["data/Location.ndjson", "data/Checkin.ndjson"] {
            let linesA = try String(contentsOfFile: a + "/" + file, encoding: .utf8).split(separator: "\n").sorted()
            let linesB = try String(contentsOfFile: b + "/" + file, encoding: .utf8).split(separator: "\n").sorted()
            XCTAssertEqual(linesA.count, file.contains("Location") ? 500 : 4000)
            XCTAssertTrue(linesA == linesB, "\(file): the items differ")
        }
        XCTAssertTrue(
            try String(contentsOfFile: b + "/data/Location.ndjson", encoding: .utf8).contains(
                #""displayName":"Café Zoë ☕""#))

        // Tables of version 1 are not read with version 3.
        let v1Tables = environment.merging(["TABLE_PREFIX": "v1-"]) { $1 }
        XCTAssertEqual(
            try ImporterBinary.run(
                ["restore", v1, "Pipelines/locations-dynamodb.yaml", "--quiet"], environment: v1Tables
            ).status, 0)
        let refused = try ImporterBinary.run(
            ["export", latest, "--out", out + "/refused.tar.gz"], environment: v1Tables)
        XCTAssertEqual(refused.status, 2, refused.output)
        XCTAssertTrue(
            refused.output.contains(
                "the tables with prefix 'v1-': holds Locations version 1, not version 3; migrate it first"),
            refused.output)
    }
}

extension Dictionary where Key == String, Value == Any {
    func object(_ key: String) -> [String: Any] { self[key] as? [String: Any] ?? [:] }
    func objects(_ key: String) -> [[String: Any]] { self[key] as? [[String: Any]] ?? [] }
    func string(_ key: String) -> String? { self[key] as? String }
}
