import Foundation
import ImporterCore
import Synchronization
import TestSupport
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// Sharded runs (docs/dynamodb.md): four `run --shard K/4` processes at once, parents first
/// (`--entities Location`), then children, store what one unsharded run stores, item by item;
/// `report merge` sums their reports into the unsharded run's counts.
final class DynamoDBShardTests: MotoTestCase {
    func testFourShardsAtOnceStoreWhatOneRunStores() throws {
        let server = try server()
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeDumps(in: directory)
        let whole = try pipeline(in: directory, name: "whole")
        let sharded = try pipeline(in: directory, name: "sharded")
        let environment = ImporterBinary.environment(server)

        let one = try ImporterBinary.run(["run", whole, "--quiet"], environment: environment)
        XCTAssertEqual(one.status, 0, one.output)
        for entity in ["Location", "Checkin"] {
            let shards = try runConcurrently(
                (1...4).map { ["run", sharded, "--quiet", "--entities", entity, "--shard", "\($0)/4"] },
                environment: environment)
            for (index, shard) in shards.enumerated() {
                XCTAssertEqual(shard.status, 0, "\(entity) shard \(index + 1): \(shard.output)")
            }
            XCTAssertEqual(shards.filter { $0.output.contains("inserted") }.count, 4)
        }

        for entity in ["Location", "Checkin"] {
            let expected = try items(of: entity, prefix: "whole-"), stored = try items(of: entity, prefix: "sharded-")
            XCTAssertEqual(expected.count, entity == "Location" ? 500 : 7_800)
            XCTAssertEqual(stored, expected, "\(entity): the sharded tables hold the same items, versions included")
        }

        let reports = directory + "/reports-sharded"
        let shardFolders = (1...4).map { "\(reports)/shard-\($0)-of-4" }
        let merge = try ImporterBinary.run(
            ["report", "merge"] + shardFolders + ["--out", directory + "/merged"], environment: environment)
        XCTAssertEqual(merge.status, 0, merge.output)
        let merged = try ImporterBinary.report(directory + "/merged"),
            unsharded = try ImporterBinary.report(directory + "/reports-whole")
        let checkins = try XCTUnwrap(
            (merged["entities"] as? [[String: Any]])?.first { $0["entity"] as? String == "Checkin" })
        let checkinCounts = try XCTUnwrap(checkins["counts"] as? [String: Any])
        XCTAssertEqual(checkinCounts["read"] as? Int, 7_800)
        XCTAssertEqual(checkinCounts["inserted"] as? Int, 7_800)
        XCTAssertEqual((merged["mergedRuns"] as? [Any])?.count, 4)
        let unshardedTotals = try XCTUnwrap(unsharded["totals"] as? [String: Any])
        let mergedCheckinInputs = (merged["inputs"] as? [[String: Any]] ?? []).filter {
            $0["entity"] as? String == "Checkin"
        }
        XCTAssertEqual(mergedCheckinInputs.count, 7, "six whole files and one sliced CSV")
        XCTAssertEqual(
            mergedCheckinInputs.compactMap { ($0["counts"] as? [String: Any])?["read"] as? Int }.reduce(0, +), 7_800)
        XCTAssertEqual(unshardedTotals["read"] as? Int, 8_300)
    }

    /// Checkins: six NDJSON files of 300 (a source of at least 4 files: whole files per shard)
    /// and one CSV of 6,000 whose comments hold quoted newlines (sliced into blocks of 4,096 records).
    private func writeDumps(in directory: String) throws {
        for file in 0..<6 {
            let lines = TestPipelines.checkins(300).split(separator: "\n").map { line in
                line.replacingOccurrences(of: "chk-", with: "chk-\(file)-")
            }
            try (lines.joined(separator: "\n") + "\n").write(
                toFile: "\(directory)/checkins-\(file).ndjson", atomically: false, encoding: .utf8)
        }
        var csv = "checkinId,locationId,checkinTime,comment,rating\n"
        for i in 1...6000 {
            csv +=
                "csv-\(i),loc-\(String(format: "%05d", i % 500 + 1)),2024-02-01T00:00:00Z,\"line one of \(i)\nline two, \"\"quoted\"\"\",\(i % 5 + 1)\n"
        }
        try csv.write(toFile: directory + "/checkins.csv", atomically: false, encoding: .utf8)
    }

    private func pipeline(in directory: String, name: String) throws -> String {
        let yaml = """
            name: shards
            model: \(TestPipelines.sample.path)/Model/v1.yaml
            sources:
              - { entity: Location, path: \(TestPipelines.sample.path)/locations.csv, format: csv }
              - { entity: Checkin, path: "\(directory)/checkins-*.ndjson", format: ndjson }
              - { entity: Checkin, path: \(directory)/checkins.csv, format: csv }
            destination: { type: dynamodb, tablePrefix: "\(name)-", createTables: true }
            write: { mode: upsert, transactional: false, concurrency: 4 }
            retry: { maxAttempts: 8, baseDelay: 0.01, maxDelay: 0.2 }
            report: { directory: \(directory)/reports-\(name) }
            """
        let path = "\(directory)/\(name).yaml"
        try yaml.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Runs the importer with each argument list at once; their results in the same order.
    private func runConcurrently(_ runs: [[String]], environment: [String: String]) throws -> [(
        status: Int32, output: String
    )] {
        let results = Mutex<[Int: Result<(status: Int32, output: String), Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: runs.count) { index in
            let result = Result { try ImporterBinary.run(runs[index], environment: environment) }
            results.withLock { $0[index] = result }
        }
        return try (0..<runs.count).map { index in try results.withLock { $0[index]! }.get() }
    }

    /// Every item of `entity` in the tables with `prefix`, by key.
    private func items(of entity: String, prefix: String) throws -> [String: [Value]] {
        var options = DynamoDBStore.Options()
        options.tablePrefix = prefix
        let store = try DynamoDBStore(client: try client(), options: options)
        XCTAssertTrue(try store.prepareToRead(try SampleModel.model()))
        let model = try SampleModel.model().entity(named: entity)!
        var items: [String: [Value]] = [:]
        try store.scan(model) { values in items["\(values[model.hashKeyIndex])"] = values }
        return items
    }
}
