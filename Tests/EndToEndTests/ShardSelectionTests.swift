import Foundation
import TestSupport
import XCTest

/// What `--shard` and `--entities` refuse before anything is written (exit 2, naming the
/// pipeline and why); sharded runs themselves are tested against DynamoDB (DynamoDBShardTests).
final class ShardSelectionTests: XCTestCase {
    func testRefusedSelectionsWriteNothing() throws {
        let directory = ImporterProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["OUT_DIR": directory]
        let cases: [(arguments: [String], says: String)] = [
            (["--shard", "1/2"], "a SQLite store is one file"),
            (["--entities", "Nope"], "Nope is not an entity of model Locations"),
        ]
        for (arguments, says) in cases {
            let result = try ImporterProcess.run(
                ["run", "Pipelines/locations.yaml"] + arguments, environment: environment)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("Pipelines/locations.yaml"), result.stderr)
            XCTAssertTrue(result.stderr.contains(says), result.stderr)
        }
        let badShard = try ImporterProcess.run(
            ["run", "Pipelines/locations.yaml", "--shard", "3/2"], environment: environment)
        XCTAssertNotEqual(badShard.status, 0)
        XCTAssertTrue(badShard.stderr.contains("--shard expects K/N"), badShard.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/locations.sqlite"), "nothing was written")
    }

    func testEntitiesLoadsOnlyThoseAndChecksReferencesAgainstTheStore() throws {
        let directory = ImporterProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["OUT_DIR": directory]
        let children = try ImporterProcess.run(
            ["run", "Pipelines/locations.yaml", "--entities", "Checkin", "--quiet"], environment: environment)
        XCTAssertEqual(children.status, 3, "every Checkin names a Location the store lacks: \(children.stderr)")
        let parents = try ImporterProcess.run(
            ["run", "Pipelines/locations.yaml", "--entities", "Location", "--quiet"], environment: environment)
        XCTAssertEqual(parents.status, 0, parents.stderr)
        XCTAssertEqual(try ImporterProcess.sqlite(directory + "/locations.sqlite", "SELECT count(*) FROM Checkin"), "0")
        let then = try ImporterProcess.run(
            ["run", "Pipelines/locations.yaml", "--entities", "Checkin", "--quiet"], environment: environment)
        XCTAssertEqual(then.status, 0, then.stderr)
        XCTAssertEqual(
            try ImporterProcess.sqlite(directory + "/locations.sqlite", "SELECT count(*) FROM Checkin"), "4000")
    }
}
