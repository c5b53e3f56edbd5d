import Foundation
import ImporterCore
@testable import ImporterAWS
import ImporterDynamoDB
import TestSupport
import XCTest

/// docs/migration.md on DynamoDB, through the command line against moto: `importer migrate` rewrites the
/// sample's tables from version 1 to 3 item by item, ending with what a migrated SQLite store
/// holds; items that cannot be migrated stop it before any write (or are deleted with
/// --allow-rejects); a killed migration resumes, and an item changed meanwhile is migrated from
/// its new content, not overwritten.
final class DynamoDBMigrationTests: MotoTestCase {
    func testTablesMigrateItemByItemToWhatAMigratedSQLiteStoreHolds() throws {
        let (out, environment) = try setUp(prefix: "mig-")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let client = try client()
        // An attribute outside the model, written by another tool, is kept.
        _ = try send(
            client, "UpdateItem",
            [
                "TableName": "mig-AWS-Locations", "Key": ["locationId": ["S": "loc-00001"]],
                "UpdateExpression": "SET legacyNote = :n", "ExpressionAttributeValues": [":n": ["S": "keep me"]],
            ])

        let dryRun = try ImporterBinary.run(["migrate", Self.migrated, "--dry-run"], environment: environment)
        XCTAssertEqual(dryRun.status, 0, dryRun.output)
        XCTAssertTrue(dryRun.output.contains("Locations 1 → 2: 4500 items, 0 would fail"), dryRun.output)
        XCTAssertEqual(try meta(client, "mig-")["version"] as? [String: String], ["N": "1"])
        XCTAssertNotNil(
            try item(client, "mig-AWS-Locations", "locationId", "loc-00001")?["name"], "a dry run changed an item")

        let migrate = try ImporterBinary.run(["migrate", Self.migrated, "--quiet"], environment: environment)
        XCTAssertEqual(migrate.status, 0, migrate.output)
        let report = try migrationReport(out)
        XCTAssertEqual(report["status"] as? String, "migrated")
        XCTAssertEqual(
            (report["steps"] as? [[String: Any]])?.map {
                "\($0["from"]!)→\($0["to"]!) \($0["items"]!) \($0["failed"]!)"
            },
            ["1→2 4500 0", "2→3 4500 0"])
        let recorded = try meta(client, "mig-")
        XCTAssertEqual(recorded["version"] as? [String: String], ["N": "3"])
        XCTAssertNil(recorded["migratingTo"])
        let history = ((recorded["migrations"] as? [String: Any])?["L"] as? [[String: Any]])?.compactMap {
            $0["M"] as? [String: Any]
        }
        XCTAssertEqual(history?.count, 1)
        XCTAssertEqual(history?.first?["success"] as? [String: Bool], ["BOOL": true])
        XCTAssertEqual(history?.first?["items"] as? [String: String], ["N": "4500"])
        XCTAssertFalse(
            FileManager.default.fileExists(
                atPath: out + "/reports/migrate-locations-dynamodb/migration-checkpoint.json"))
        let kept = try item(client, "mig-AWS-Locations", "locationId", "loc-00001")
        XCTAssertEqual(kept?["legacyNote"] as? [String: String], ["S": "keep me"])
        XCTAssertEqual(kept?["displayName"] as? [String: String], ["S": "Café Zoë ☕"])
        XCTAssertNil(kept?["name"])
        let inspect = try ImporterBinary.run(["inspect", Self.migrated], environment: environment)
        XCTAssertEqual(inspect.status, 0, inspect.output)
        for line in ["model: Locations version 3", "Checkin (mig-Checkin): 4000", "1 → 3: done, 4500 items"] {
            XCTAssertTrue(inspect.output.contains(line), inspect.output)
        }

        // The same items as a SQLite store migrated from the same dumps, versions included.
        let sqliteExport = try migratedSQLiteExport(out, environment)
        let dynamoExport = out + "/dynamodb-v3.tar.gz"
        let export = try ImporterBinary.run(["export", Self.migrated, "--out", dynamoExport], environment: environment)
        XCTAssertEqual(export.status, 0, export.output)
        let a = try CommandLineTools.unpack(sqliteExport, into: out + "/a"),
            b = try CommandLineTools.unpack(dynamoExport, into: out + "/b")
        for file in ["data/Location.ndjson", "data/Checkin.ndjson"] {
            let linesA = try CommandLineTools.sortedLines(a, file), linesB = try CommandLineTools.sortedLines(b, file)
            XCTAssertEqual(linesA.count, file.contains("Location") ? 500 : 4000)
            XCTAssertTrue(linesA == linesB, "\(file): the items differ")
        }
        // Dumps migrated on read find every item unchanged.
        let rerun = try ImporterBinary.run(["run", Self.migrated, "--quiet"], environment: environment)
        XCTAssertEqual(rerun.status, 0, rerun.output)
        XCTAssertEqual(
            try ImporterBinary.report(out + "/reports/migrate-locations-dynamodb").number("totals", "unchanged"), 4500,
            rerun.output)

        let again = try ImporterBinary.run(["migrate", Self.migrated], environment: environment)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertTrue(again.output.contains("already at Locations version 3; nothing to migrate"), again.output)
    }

    func testAnItemThatCannotBeMigratedStopsTheMigrationBeforeAnyWriteOrIsDeletedWithAllowRejects() throws {
        let (out, environment) = try setUp(prefix: "rej-")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let client = try client()
        // Another tool writes a rating that version 2's mood map does not list.
        _ = try send(
            client, "UpdateItem",
            [
                "TableName": "rej-Checkin", "Key": ["checkinId": ["S": "chk-000002"]],
                "UpdateExpression": "SET rating = :r", "ExpressionAttributeValues": [":r": ["N": "0"]],
            ])

        let refused = try ImporterBinary.run(["migrate", Self.migrated], environment: environment)
        XCTAssertEqual(refused.status, 3, refused.output)
        XCTAssertTrue(refused.output.contains("nothing was written: 1 items cannot be migrated"), refused.output)
        let rejects = try String(
            contentsOfFile: out + "/reports/migrate-locations-dynamodb/rejects.ndjson", encoding: .utf8
        )
        .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        XCTAssertEqual(rejects.count, 1)
        XCTAssertEqual(rejects.first?["key"] as? String, "chk-000002")
        XCTAssertEqual(rejects.first?["reason"] as? String, "conversion")
        XCTAssertEqual(rejects.first?["field"] as? String, "mood")
        XCTAssertEqual(rejects.first?["toVersion"] as? Int, 2)
        XCTAssertEqual((rejects.first?["item"] as? [String: Any])?["rating"] as? Int, 0)
        XCTAssertEqual(try migrationReport(out)["status"] as? String, "rolledBack")
        let recorded = try meta(client, "rej-")
        XCTAssertEqual(recorded["version"] as? [String: String], ["N": "1"])
        XCTAssertNil(recorded["migratingTo"])
        let history = ((recorded["migrations"] as? [String: Any])?["L"] as? [[String: Any]])?.compactMap {
            $0["M"] as? [String: Any]
        }
        XCTAssertEqual(history?.first?["success"] as? [String: Bool], ["BOOL": false])
        XCTAssertNotNil(
            try item(client, "rej-AWS-Locations", "locationId", "loc-00001")?["name"], "an item was written")
        XCTAssertNil(try item(client, "rej-Checkin", "checkinId", "chk-000003")?["mood"], "an item was written")

        let allowed = try ImporterBinary.run(
            ["migrate", Self.migrated, "--allow-rejects", "--quiet"], environment: environment)
        XCTAssertEqual(allowed.status, 1, allowed.output)
        XCTAssertEqual(try migrationReport(out)["status"] as? String, "migratedWithRejects")
        XCTAssertNil(
            try item(client, "rej-Checkin", "checkinId", "chk-000002"), "the item that cannot be migrated is deleted")
        XCTAssertNotNil(try item(client, "rej-Checkin", "checkinId", "chk-000003")?["mood"])
        XCTAssertEqual(try count(client, "rej-Checkin"), 3999)
        XCTAssertEqual(try meta(client, "rej-")["version"] as? [String: String], ["N": "3"])
    }

    func testAKilledMigrationResumesAndMigratesAnItemChangedMeanwhileFromItsNewContent() throws {
        let (out, environment) = try setUp(prefix: "kill-")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let client = try client()
        let checkpoint = out + "/reports/migrate-locations-dynamodb/migration-checkpoint.json"

        // Kill the migration while a page of Checkins is being written: stopped first, so the
        // checkpoint read is the one a resumed migration starts from.
        let migration = try ImporterBinary.process(
            ["migrate", Self.migrated, "--quiet"], environment: environment,
            log: URL(fileURLWithPath: out + "/killed.log"))
        try migration.run()
        var inFlight: [String] = []
        let deadline = Date().addingTimeInterval(240)
        while migration.isRunning, Date() < deadline {
            if !checkinsInFlight(checkpoint).isEmpty {
                kill(migration.processIdentifier, SIGSTOP)
                inFlight = checkinsInFlight(checkpoint)
                if !inFlight.isEmpty { break }
                kill(migration.processIdentifier, SIGCONT)
            }
            usleep(20_000)
        }
        XCTAssertTrue(migration.isRunning, "the migration ended before it could be killed")
        kill(migration.processIdentifier, SIGKILL)
        migration.waitUntilExit()
        // One whose migration changes it (a Checkin without a rating gets no mood, so stays as it is).
        let stale = try XCTUnwrap(
            try inFlight.lazy.compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { $0["rating"] != nil })
        let key = try XCTUnwrap((stale["checkinId"] as? [String: String])?["S"])

        // Until the migration ends, the tables are refused for runs and exports.
        let export = try ImporterBinary.run(
            ["export", Self.migrated, "--out", out + "/refused.tar.gz"], environment: environment)
        XCTAssertEqual(export.status, 2, export.output)
        XCTAssertTrue(export.output.contains("are being migrated from Locations version 1 to 3"), export.output)
        let inspect = try ImporterBinary.run(["inspect", Self.migrated], environment: environment)
        XCTAssertTrue(inspect.output.contains("unfinished migration to version 3"), inspect.output)

        // A version 1 writer changes an item of the interrupted page (version 1 → 2).
        var changed = stale
        changed["comment"] = ["S": "changed during the migration"]
        changed["rating"] = ["N": "1"]
        changed["version"] = ["N": "2"]
        changed["mood"] = nil
        _ = try send(client, "PutItem", ["TableName": "kill-Checkin", "Item": changed])

        let resumed = try ImporterBinary.run(["migrate", Self.migrated, "--quiet"], environment: environment)
        XCTAssertEqual(resumed.status, 0, resumed.output)
        XCTAssertTrue(resumed.output.contains("resumed the unfinished migration"), resumed.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: checkpoint))
        let migrated = try XCTUnwrap(try item(client, "kill-Checkin", "checkinId", key))
        XCTAssertEqual(migrated["version"] as? [String: String], ["N": "2"])
        XCTAssertEqual(migrated["comment"] as? [String: String], ["S": "changed during the migration"])
        XCTAssertEqual(migrated["mood"] as? [String: String], ["S": "bad"], "migrated from the changed rating")

        // Every other item as a SQLite store migrated without interruption holds it.
        let sqliteExport = try migratedSQLiteExport(out, environment)
        let dynamoExport = out + "/dynamodb-v3.tar.gz"
        let exported = try ImporterBinary.run(
            ["export", Self.migrated, "--out", dynamoExport], environment: environment)
        XCTAssertEqual(exported.status, 0, exported.output)
        let a = try CommandLineTools.unpack(sqliteExport, into: out + "/a"),
            b = try CommandLineTools.unpack(dynamoExport, into: out + "/b")
        XCTAssertTrue(
            try CommandLineTools.sortedLines(a, "data/Location.ndjson")
                == CommandLineTools.sortedLines(b, "data/Location.ndjson"))
        let others = { (lines: [Substring]) in lines.filter { !$0.contains(#""checkinId":"\#(key)""#) } }
        let checkinsA = try CommandLineTools.sortedLines(a, "data/Checkin.ndjson"),
            checkinsB = try CommandLineTools.sortedLines(b, "data/Checkin.ndjson")
        XCTAssertEqual(checkinsB.count, 4000)
        XCTAssertEqual(others(checkinsA).count, 3999)
        XCTAssertTrue(others(checkinsA) == others(checkinsB), "Checkin: the items differ")
    }

    /// An entity whose table changes moves: each item is put into the new table (on its
    /// version) and deleted from the old one, page by page.
    func testItemsOfAnEntityWhoseTableIsRenamedMoveToTheNewTable() throws {
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
        model: Places
        version: 1
        entities:
          Place:
            table: Places
            hashKey: id
            versionAttribute: version
            attributes: { id: { type: int64 }, label: { type: string }, version: { type: int64 } }
        """.write(toFile: directory + "/v1.yaml", atomically: false, encoding: .utf8)
        try """
        model: Places
        version: 2
        entities:
          Venue:
            renamedFrom: Place
            table: Venues
            hashKey: id
            versionAttribute: version
            attributes: { id: { type: int64 }, name: { type: string, renamedFrom: label }, version: { type: int64 } }
        """.write(toFile: directory + "/v2.yaml", atomically: false, encoding: .utf8)
        let versions = try ModelLoader.load(path: directory)
        var options = DynamoDBStore.Options()
        options.tablePrefix = "move-"
        options.createTables = true
        options.concurrency = 2
        let store = try DynamoDBStore(client: try client(), options: options)
        let v1 = versions.version(1)!
        try store.prepare(for: v1)
        let place = v1.entity(named: "Place")!
        let records = (1...60).map {
            PreparedRecord(
                inputIndex: 0, line: $0, byteOffset: 0, raw: [],
                values: [.integer(Int64($0)), .string("place \($0)"), .integer(Int64($0 % 3 + 1))])
        }
        var write = WriteConfig()
        write.versions = .preserve
        _ = try store.write(records, of: place, rules: VersionRules(entity: place, write: write))

        var settings = MigrationSettings(checkpointFile: directory + "/migration-checkpoint.json")
        settings.pageSize = 7
        let result = try store.migrate(try MigrationPlan(versions, from: 1, to: 2), settings: settings)
        XCTAssertEqual(result.outcome.steps.map(\.items), [60])
        XCTAssertTrue(result.outcome.failures.isEmpty)
        let client = try client()
        XCTAssertEqual(try count(client, "move-Places"), 0)
        XCTAssertEqual(try count(client, "move-Venues"), 60)
        let moved = try send(
            client, "GetItem", ["TableName": "move-Venues", "Key": ["id": ["N": "7"]], "ConsistentRead": true])["Item"]
        XCTAssertEqual(
            moved as? NSDictionary, ["id": ["N": "7"], "name": ["S": "place 7"], "version": ["N": "2"]] as NSDictionary)
        XCTAssertEqual(try store.recordedVersion(in: versions, acceptModelChange: false)?.model.version, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: settings.checkpointFile))
    }

    // MARK: Helpers

    /// A temporary OUT_DIR and the environment for tables with `prefix`, loaded from the
    /// sample's version 1 dumps.
    private func setUp(prefix: String) throws -> (String, [String: String]) {
        let out = try ImporterBinary.temporaryDirectory()
        let environment = ImporterBinary.environment(try server()).merging(["OUT_DIR": out, "TABLE_PREFIX": prefix]) {
            $1
        }
        let load = try ImporterBinary.run(
            ["run", "Pipelines/locations-dynamodb.yaml", "--quiet"], environment: environment)
        XCTAssertEqual(load.status, 0, load.output)
        return (out, environment)
    }

    /// The sample on version 3 (its version 1 dumps migrated on read).
    private static let migrated = "Pipelines/migrate-locations-dynamodb.yaml"

    /// The sample loaded into SQLite at version 1, migrated to 3 and exported.
    private func migratedSQLiteExport(_ out: String, _ environment: [String: String]) throws -> String {
        XCTAssertEqual(
            try ImporterBinary.run(["run", "Pipelines/locations.yaml", "--quiet"], environment: environment).status, 0)
        XCTAssertEqual(
            try ImporterBinary.run(
                ["migrate", "Pipelines/migrate-locations.yaml", "--quiet"], environment: environment
            ).status, 0)
        let archive = out + "/sqlite-v3.tar.gz"
        XCTAssertEqual(
            try ImporterBinary.run(
                ["export", "Pipelines/migrate-locations.yaml", "--out", archive], environment: environment
            ).status, 0)
        return archive
    }

    private func migrationReport(_ out: String) throws -> [String: Any] {
        let data = try Data(
            contentsOf: URL(fileURLWithPath: out + "/reports/migrate-locations-dynamodb/migration.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The Checkins of the page a migration is writing, as the checkpoint holds them.
    private func checkinsInFlight(_ checkpoint: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: checkpoint),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let segments = (object["entities"] as? [String: Any])?["Checkin"] as? [[String: Any]]
        else { return [] }
        return segments.flatMap { $0["inFlight"] as? [String] ?? [] }
    }

    private func send(_ client: DynamoDBClient, _ operation: String, _ body: [String: Any]) throws -> [String: Any] {
        try client.sendJSON(operation, try JSONSerialization.data(withJSONObject: body))
    }

    private func item(_ client: DynamoDBClient, _ table: String, _ keyName: String, _ key: String) throws -> [String:
        Any]?
    {
        try send(client, "GetItem", ["TableName": table, "Key": [keyName: ["S": key]], "ConsistentRead": true])["Item"]
            as? [String: Any]
    }

    private func meta(_ client: DynamoDBClient, _ prefix: String) throws -> [String: Any] {
        try item(client, prefix + "importer_meta", "model", "Locations") ?? [:]
    }

    private func count(_ client: DynamoDBClient, _ table: String) throws -> Int {
        var total = 0
        var start: Any?
        repeat {
            var request: [String: Any] = ["TableName": table, "Select": "COUNT", "ConsistentRead": true]
            if let start { request["ExclusiveStartKey"] = start }
            let page = try send(client, "Scan", request)
            total += page["Count"] as? Int ?? 0
            start = page["LastEvaluatedKey"]
        } while start != nil
        return total
    }
}
