import Foundation
import ImporterCore
import TestSupport
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// `importer run` with `destination.type: dynamodb`, against moto with authentication on.
final class DynamoDBPipelineTests: MotoTestCase {
    /// The README's local run: the sample pipeline into moto, then boto3 (an outside client)
    /// reads the tables and finds the types of docs/values.md and the dump's values.
    func testSamplePipelineWritesItemsThatBoto3ReadsWithTheirTypes() throws {
        let server = try server()
        let out = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let environment = samplePipelineEnvironment(server, out: out, tablePrefix: "sample-")
        let first = try ImporterBinary.run(
            ["run", "Pipelines/locations-dynamodb.yaml", "--quiet"], environment: environment)
        XCTAssertEqual(first.status, 0, first.output)
        let report = try ImporterBinary.report(out + "/reports/locations-dynamodb")
        XCTAssertEqual(report.number("totals", "read"), 4500, first.output)
        XCTAssertEqual(report.number("totals", "inserted"), 4500, first.output)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: out + "/reports/locations-dynamodb/checkpoint.json"),
            "a finished run clears its checkpoint")

        let again = try ImporterBinary.run(
            ["run", "Pipelines/locations-dynamodb.yaml", "--quiet"], environment: environment)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertEqual(
            try ImporterBinary.report(out + "/reports/locations-dynamodb").number("totals", "unchanged"), 4500,
            again.output)

        let tables = try boto3Scan(server, tables: ["sample-AWS-Locations", "sample-Checkin"])
        let locations = tables["sample-AWS-Locations"] ?? [:]
        let checkins = tables["sample-Checkin"] ?? [:]
        XCTAssertEqual(locations.count, 500)
        XCTAssertEqual(checkins.count, 4000)
        // loc-00001,Café Zoë ☕,16.77092,158.23883,2023-09-04T00:30:31.488Z,0,1.56,106885
        XCTAssertEqual(
            locations["loc-00001"] as? NSDictionary,
            [
                "locationId": ["S": "loc-00001"], "name": ["S": "Café Zoë ☕"], "latitude": ["N": "16.77092"],
                "longitude": ["N": "158.23883"], "createdAt": ["S": "2023-09-04T00:30:31.488Z"],
                "active": ["BOOL": false],
                "rating": ["N": "1.56"], "visits": ["N": "106885"], "version": ["N": "1"],
            ] as NSDictionary)
        // loc-00002,"🍕 Pizza, ""Best"" in town",-21.1,87.126,2023-02-16T07:05:18Z,TRUE,2.47,63805
        let pizza = locations["loc-00002"] as? [String: Any]
        XCTAssertEqual(pizza?["name"] as? NSDictionary, ["S": "🍕 Pizza, \"Best\" in town"] as NSDictionary)
        XCTAssertEqual(pizza?["createdAt"] as? NSDictionary, ["S": "2023-02-16T07:05:18.000Z"] as NSDictionary)
        XCTAssertEqual(pizza?["active"] as? NSDictionary, ["BOOL": true] as NSDictionary)
        // {"checkinId":"chk-000001",…,"comment":"Loud music, slow service, \"interesting\" décor","rating":null}
        XCTAssertEqual(
            checkins["chk-000001"] as? NSDictionary,
            [
                "checkinId": ["S": "chk-000001"], "locationId": ["S": "loc-00126"],
                "checkinTime": ["S": "2024-06-17T00:31:52.754Z"],
                "comment": ["S": "Loud music, slow service, \"interesting\" décor"], "version": ["N": "1"],
            ] as NSDictionary, "a null rating is omitted from the item")
    }

    /// A table whose key schema does not fit the model is exit 2 before any item is written.
    func testATableKeyedOtherwiseIsAConfigurationErrorBeforeAnyWrite() throws {
        let server = try server()
        let client = try client()
        _ = try client.sendJSON(
            "CreateTable",
            json([
                "TableName": "keyed-AWS-Locations", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [["AttributeName": "id", "AttributeType": "N"]],
                "KeySchema": [["AttributeName": "id", "KeyType": "HASH"]],
            ]))
        let out = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let environment = samplePipelineEnvironment(server, out: out, tablePrefix: "keyed-")
        let run = try ImporterBinary.run(
            ["run", "Pipelines/locations-dynamodb.yaml", "--quiet"], environment: environment)
        XCTAssertEqual(run.status, 2, run.output)
        XCTAssertTrue(
            run.output.contains(
                "table keyed-AWS-Locations is keyed by id HASH (N), but the model needs hash key locationId of type S"),
            run.output)
        let scan = try client.sendJSON("Scan", json(["TableName": "keyed-AWS-Locations", "Select": "COUNT"]))
        XCTAssertEqual(scan["Count"] as? Int, 0)
        let tables = try client.sendJSON("ListTables", json([:]))["TableNames"] as? [String] ?? []
        XCTAssertFalse(tables.contains("keyed-Checkin"), "nothing is created after the mismatch: \(tables)")
    }

    /// What `Pipelines/locations-dynamodb.yaml` reads: the server, its credentials, OUT_DIR, TABLE_PREFIX.
    private func samplePipelineEnvironment(_ server: MotoServer, out: String, tablePrefix: String) -> [String: String] {
        ImporterBinary.environment(server).merging(["OUT_DIR": out, "TABLE_PREFIX": tablePrefix]) { $1 }
    }

    /// Every item of `tables`, keyed by hash key, as boto3's low-level client returns it (typed).
    private func boto3Scan(_ server: MotoServer, tables: [String]) throws -> [String: [String: Any]] {
        let script = """
            import boto3, json, sys
            client = boto3.client("dynamodb", endpoint_url=sys.argv[1], region_name="us-east-1")
            result = {}
            for table in sys.argv[2:]:
                key = client.describe_table(TableName=table)["Table"]["KeySchema"][0]["AttributeName"]
                items = {}
                for page in client.get_paginator("scan").paginate(TableName=table):
                    for item in page["Items"]:
                        items[item[key]["S"]] = item
                result[table] = items
            print(json.dumps(result))
            """
        let output = try CommandLineTools.run(
            try MotoServer.findExecutable("python3").path, ["-c", script, server.endpoint.absoluteString] + tables,
            environment: [
                "AWS_ACCESS_KEY_ID": server.credentials.accessKeyId,
                "AWS_SECRET_ACCESS_KEY": server.credentials.secretAccessKey,
            ])
        let data = Data(output.utf8)
        return try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] ?? [:]
    }
}
