import Foundation
import XCTest

/// Backups across stores (SPEC §10): SQLite → archive → DynamoDB → archive → SQLite, through
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
        _ = try sqlite(sqliteStore, "UPDATE Checkin SET version = 1 + rowid % 4; UPDATE \"AWS-Locations\" SET version = 1 + rowid % 3")

        let fromSQLite = out + "/from-sqlite.tar.gz"
        let first = try ImporterBinary.run(["export", "Pipelines/locations.yaml", "--out", fromSQLite], environment: environment)
        XCTAssertEqual(first.status, 0, first.output)

        let restore = try ImporterBinary.run(["restore", fromSQLite, "Pipelines/locations-dynamodb.yaml", "--quiet"], environment: environment)
        XCTAssertEqual(restore.status, 0, restore.output)
        XCTAssertEqual(try ImporterBinary.report(out + "/reports/locations-dynamodb").number("totals", "inserted"), 4500, restore.output)

        let fromDynamoDB = out + "/from-dynamodb.tar.zst"
        let second = try ImporterBinary.run(["export", "Pipelines/locations-dynamodb.yaml", "--out", fromDynamoDB], environment: environment)
        XCTAssertEqual(second.status, 0, second.output)

        let a = try unpack(fromSQLite, into: out + "/a"), b = try unpack(fromDynamoDB, into: out + "/b")
        let manifestA = try manifest(a), manifestB = try manifest(b)
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
            let linesA = try String(contentsOfFile: a + "/" + (fileA["file"] as! String), encoding: .utf8).split(separator: "\n").sorted()
            let linesB = try String(contentsOfFile: b + "/" + (fileB["file"] as! String), encoding: .utf8).split(separator: "\n").sorted()
            XCTAssertEqual(linesA.count, fileA["items"] as? Int)
            XCTAssertTrue(linesA == linesB, "\(fileA["entity"]!): the items differ")
        }

        // And back into a new SQLite store: the same rows as the first, versions included.
        let back = try ImporterBinary.run(["restore", fromDynamoDB, "Pipelines/locations.yaml", "--quiet"],
                                          environment: environment.merging(["OUT_DIR": out + "/back"]) { $1 })
        XCTAssertEqual(back.status, 0, back.output)
        for table in ["\"AWS-Locations\"", "Checkin"] {
            let query = "SELECT * FROM \(table) ORDER BY 1"
            XCTAssertEqual(try sqlite(out + "/back/locations.sqlite", query), try sqlite(sqliteStore, query), table)
        }
        XCTAssertEqual(try sqlite(out + "/back/locations.sqlite", "SELECT group_concat(DISTINCT version) FROM (SELECT version FROM Checkin ORDER BY 1)"), "1,2,3,4")
    }

    private func unpack(_ archive: String, into directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try run("/usr/bin/tar", ["-xf", archive, "-C", directory])
        return directory
    }

    private func manifest(_ directory: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))) as! [String: Any]
    }

    private func sqlite(_ database: String, _ sql: String) throws -> String {
        var text = try run("/usr/bin/sqlite3", [database, sql])
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }
}

extension Dictionary where Key == String, Value == Any {
    func object(_ key: String) -> [String: Any] { self[key] as? [String: Any] ?? [:] }
    func objects(_ key: String) -> [[String: Any]] { self[key] as? [[String: Any]] ?? [] }
    func string(_ key: String) -> String? { self[key] as? String }
}
