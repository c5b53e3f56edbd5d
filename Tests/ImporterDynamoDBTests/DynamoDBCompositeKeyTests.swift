import Foundation
import ImporterCore
import TestSupport
import XCTest

/// Entities keyed by (hash, range) in DynamoDB tables (docs/model.md#composite-keys): KeySchema HASH + RANGE,
/// duplicates, versions, references to the pair and sync deletes, through `importer run` on moto.
final class DynamoDBCompositeKeyTests: MotoTestCase {
    private static let model = TestModels.weather(hour: "date")

    private func run(_ directory: String, readings: String, alerts: String, mode: String = "upsert") throws -> (
        status: Int32, output: String
    ) {
        try Self.model.write(toFile: directory + "/model.yaml", atomically: false, encoding: .utf8)
        try pipeline(
            directory, name: "pipeline", destination: #"{ type: dynamodb, tablePrefix: "pair-", createTables: true }"#,
            mode: mode)
        try ("stationId,hour,temperature\n" + readings).write(
            toFile: directory + "/readings.csv", atomically: false, encoding: .utf8)
        try ("alertId,stationId,hour\n" + alerts).write(
            toFile: directory + "/alerts.csv", atomically: false, encoding: .utf8)
        return try ImporterBinary.run(
            ["run", directory + "/pipeline.yaml", "--quiet"], environment: ImporterBinary.environment(try server()))
    }

    @discardableResult
    private func pipeline(_ directory: String, name: String, destination: String, mode: String = "upsert") throws
        -> String
    {
        let path = directory + "/\(name).yaml"
        try """
        model: model.yaml
        sources:
          - { entity: Reading, path: readings.csv }
          - { entity: Alert, path: alerts.csv }
        destination: \(destination)
        write: { mode: \(mode), maxDeletes: 100% }
        errors: { maxErrorRatio: 1 }
        report: { directory: reports }
        """.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Reading items as `stationId/hour=temperature vN`, sorted, and the table's key schema, read by boto3.
    private func readings(table: String = "pair-Reading") throws -> (items: [String], keySchema: String) {
        let server = try server()
        let script = """
            import boto3, sys
            client = boto3.client("dynamodb", endpoint_url=sys.argv[1], region_name="us-east-1")
            table = client.describe_table(TableName=sys.argv[2])["Table"]
            types = {d["AttributeName"]: d["AttributeType"] for d in table["AttributeDefinitions"]}
            print(" ".join(f'{k["AttributeName"]}:{k["KeyType"]}:{types[k["AttributeName"]]}' for k in table["KeySchema"]))
            for item in client.scan(TableName=sys.argv[2])["Items"]:
                print(f'{item["stationId"]["S"]}/{item["hour"]["S"]}={item.get("temperature", {}).get("N", "null")} v{item["version"]["N"]}')
            """
        let output = try CommandLineTools.run(
            try MotoServer.findExecutable("python3").path, ["-c", script, server.endpoint.absoluteString, table],
            environment: [
                "AWS_ACCESS_KEY_ID": server.credentials.accessKeyId,
                "AWS_SECRET_ACCESS_KEY": server.credentials.secretAccessKey,
            ])
        let lines = output.split(separator: "\n").map(String.init)
        return (lines.dropFirst().sorted(), lines.first ?? "")
    }

    func testThePairKeysTheTableAndEverythingThatWorksOnAKey() throws {
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let h10 = "2024-06-01T10:00:00Z", h11 = "2024-06-01T11:00:00Z"
        let first = try run(
            directory, readings: "ST1,\(h10),18.5\nST1,\(h11),19\nST2,\(h10),21\nST1,\(h10),17\n",
            alerts: "a1,ST1,\(h11)\na2,ST2,\(h11)\n")
        XCTAssertEqual(first.status, 1, first.output)
        var (items, keySchema) = try readings()
        XCTAssertEqual(keySchema, "stationId:HASH:S hour:RANGE:S")
        XCTAssertEqual(
            items,
            [
                "ST1/2024-06-01T10:00:00.000Z=18.5 v1", "ST1/2024-06-01T11:00:00.000Z=19 v1",
                "ST2/2024-06-01T10:00:00.000Z=21 v1",
            ])
        let rejects = try String(contentsOfFile: directory + "/reports/rejects.ndjson", encoding: .utf8)
        XCTAssertTrue(
            rejects.contains(#""key":["ST1","2024-06-01T10:00:00.000Z"],"stage":"validate","reason":"duplicate""#),
            rejects)
        XCTAssertTrue(
            rejects.contains(#""entity":"Alert","key":"a2","stage":"validate","reason":"reference""#), rejects)

        let again = try run(
            directory, readings: "ST1,\(h10),18.5\nST1,\(h11),19.5\nST2,\(h10),21\n", alerts: "a1,ST1,\(h11)\n")
        XCTAssertEqual(again.status, 0, again.output)
        let totals = try ImporterBinary.report(directory + "/reports")
        XCTAssertEqual(
            [totals.number("totals", "unchanged"), totals.number("totals", "updated")], [3, 1], again.output)
        (items, _) = try readings()
        XCTAssertTrue(items.contains("ST1/2024-06-01T11:00:00.000Z=19.5 v2"), "\(items)")

        // Exported from the tables and restored into an SQLite store and into new tables: every pair, value and version.
        let archive = directory + "/weather.tar.zst"
        let environment = ImporterBinary.environment(try server())
        let export = try ImporterBinary.run(
            ["export", directory + "/pipeline.yaml", "--out", archive, "--format", "dynamodb-json"],
            environment: environment)
        XCTAssertEqual(export.status, 0, export.output)
        let local = try pipeline(directory, name: "local", destination: "{ type: sqlite, path: restored.sqlite }")
        let toSQLite = try ImporterBinary.run(["restore", archive, local, "--quiet"], environment: environment)
        XCTAssertEqual(toSQLite.status, 0, toSQLite.output)
        let restored = try CommandLineTools.run(
            "/usr/bin/sqlite3",
            [
                directory + "/restored.sqlite",
                "SELECT stationId || '/' || hour || '=' || temperature || ' v' || version FROM Reading ORDER BY 1",
            ])
        XCTAssertEqual(
            restored.split(separator: "\n").map(String.init),
            items.map {
                $0.replacingOccurrences(of: "=19 v", with: "=19.0 v").replacingOccurrences(of: "=21 v", with: "=21.0 v")
            })
        let copy = try pipeline(
            directory, name: "copy", destination: #"{ type: dynamodb, tablePrefix: "copy-", createTables: true }"#)
        let toTables = try ImporterBinary.run(["restore", archive, copy, "--quiet"], environment: environment)
        XCTAssertEqual(toTables.status, 0, toTables.output)
        XCTAssertEqual(try readings(table: "copy-Reading").items, items)
        XCTAssertEqual(try readings(table: "copy-Reading").keySchema, "stationId:HASH:S hour:RANGE:S")

        let sync = try run(directory, readings: "ST1,\(h10),18.5\nST2,\(h10),21\n", alerts: "", mode: "sync")
        XCTAssertEqual(sync.status, 0, sync.output)
        (items, _) = try readings()
        XCTAssertEqual(items, ["ST1/2024-06-01T10:00:00.000Z=18.5 v1", "ST2/2024-06-01T10:00:00.000Z=21 v1"])
        let deletes = try String(contentsOfFile: directory + "/reports/deletes.ndjson", encoding: .utf8)
        XCTAssertTrue(deletes.contains(#""entity":"Reading","key":["ST1","2024-06-01T11:00:00.000Z"]"#), deletes)
        XCTAssertTrue(
            deletes.contains(#""entity":"Alert","key":"a1""#),
            "the cascade reaches the alert of the deleted reading: \(deletes)")
    }

    /// `importer migrate` rewrites each item by its pair: version 2 adds an attribute with a default.
    func testAMigrationRewritesEveryPair() throws {
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/model", withIntermediateDirectories: true)
        let v1 = Self.model.replacingOccurrences(of: "model: Weather", with: "model: Migrating")
        try v1.write(toFile: directory + "/model/v1.yaml", atomically: false, encoding: .utf8)
        try
            "stationId,hour,temperature\nST1,2024-06-01T10:00:00Z,18.5\nST1,2024-06-01T11:00:00Z,19\nST2,2024-06-01T10:00:00Z,21\n"
            .write(toFile: directory + "/readings.csv", atomically: false, encoding: .utf8)
        try "alertId,stationId,hour\na1,ST1,2024-06-01T11:00:00Z\n".write(
            toFile: directory + "/alerts.csv", atomically: false, encoding: .utf8)
        func pipeline(_ name: String, version: String) throws -> String {
            try """
            model: model
            \(version)
            sources:
              - { entity: Reading, path: readings.csv }
              - { entity: Alert, path: alerts.csv }
            destination: { type: dynamodb, tablePrefix: "mig-pair-", createTables: true }
            report: { directory: reports-\(name) }
            """.write(toFile: directory + "/\(name).yaml", atomically: false, encoding: .utf8)
            return directory + "/\(name).yaml"
        }
        let environment = ImporterBinary.environment(try server())
        let run = try ImporterBinary.run(
            ["run", try pipeline("run", version: "modelVersion: 1"), "--quiet"], environment: environment)
        XCTAssertEqual(run.status, 0, run.output)

        try v1.replacingOccurrences(of: "version: 1\n", with: "version: 2\n")
            .replacingOccurrences(
                of: "      temperature: { type: double }\n",
                with: "      temperature: { type: double }\n      humidity:    { type: int32, default: 50 }\n"
            )
            .write(toFile: directory + "/model/v2.yaml", atomically: false, encoding: .utf8)
        let migrate = try ImporterBinary.run(
            ["migrate", try pipeline("migrate", version: ""), "--quiet"], environment: environment)
        XCTAssertEqual(migrate.status, 0, migrate.output)

        let server = try server()
        let script = """
            import boto3, sys
            client = boto3.client("dynamodb", endpoint_url=sys.argv[1], region_name="us-east-1")
            for item in client.scan(TableName="mig-pair-Reading")["Items"]:
                print(f'{item["stationId"]["S"]}/{item["hour"]["S"]} humidity {item.get("humidity", {}).get("N", "none")}')
            """
        let output = try CommandLineTools.run(
            try MotoServer.findExecutable("python3").path, ["-c", script, server.endpoint.absoluteString],
            environment: [
                "AWS_ACCESS_KEY_ID": server.credentials.accessKeyId,
                "AWS_SECRET_ACCESS_KEY": server.credentials.secretAccessKey,
            ])
        XCTAssertEqual(
            output.split(separator: "\n").map(String.init).sorted(),
            [
                "ST1/2024-06-01T10:00:00.000Z humidity 50", "ST1/2024-06-01T11:00:00.000Z humidity 50",
                "ST2/2024-06-01T10:00:00.000Z humidity 50",
            ])
    }
}
