import Foundation
import ImporterCore
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// After groups in a row that found nothing stored, the writer sends new items without reading
/// first (`StoredItemsGuess`); items that do exist after all fail their condition, are read and
/// updated at the right version, by transactions and by conditional puts alike.
final class DynamoDBReadSkippingTests: MotoTestCase {
    func testNewItemsSkipTheReadAndExistingOnesAreStillUpdatedAtTheirVersion() throws {
        let server = try server()
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let proxy = try FaultProxy(upstream: server.endpoint, rates: .init(), operations: ["BatchGetItem"])
        defer { proxy.stop() }
        let environment = ImporterBinary.environment(server, endpoint: proxy.endpoint)

        // Per method: the Checkins after `fresh` stored first; then all of them with new comments.
        // Groups of 25 (transactions) or 100 (puts): the guess turns after 8 groups of new items.
        for (transactional, total, fresh) in [(true, 700, 500), (false, 1050, 1000)] {
            let prefix = transactional ? "guess-tx-" : "guess-put-"
            let old =
                TestPipelines.checkins(total) { "old \($0)" }.split(separator: "\n").dropFirst(fresh).joined(
                    separator: "\n") + "\n"
            try old.write(toFile: directory + "/old.ndjson", atomically: false, encoding: .utf8)
            try TestPipelines.checkins(total) { "new \($0)" }.write(
                toFile: directory + "/new.ndjson", atomically: false, encoding: .utf8)
            let write = "{ mode: upsert, transactional: \(transactional), concurrency: 4 }"
            let seed = try TestPipelines.write(
                in: directory, name: "seed-\(prefix)", checkins: directory + "/old.ndjson", prefix: prefix, write: write
            )
            XCTAssertEqual(try ImporterBinary.run(["run", seed, "--quiet"], environment: environment).status, 0)
            let reads = try proxy.stats().requests
            let load = try TestPipelines.write(
                in: directory, name: "load-\(prefix)", checkins: directory + "/new.ndjson", prefix: prefix, write: write
            )
            let loaded = try ImporterBinary.run(["run", load, "--quiet"], environment: environment)
            XCTAssertEqual(loaded.status, 0, loaded.output)
            let report = try ImporterBinary.report(directory + "/reports-load-\(prefix)")
            let checkin = try XCTUnwrap(
                (report["entities"] as? [[String: Any]])?.first { $0["entity"] as? String == "Checkin" })
            let counts = try XCTUnwrap(checkin["counts"] as? [String: Any])
            XCTAssertEqual(counts["inserted"] as? Int, fresh, "\(prefix) \(counts)")
            XCTAssertEqual(counts["updated"] as? Int, total - fresh, "\(prefix) \(counts)")
            XCTAssertEqual(counts["rejected"] as? Int, 0, "\(prefix) \(counts)")
            // Reading every group first would take one BatchGetItem a group.
            let groups = transactional ? (total + 500) / 25 : (total + 500 + 99) / 100
            let batchGets = try proxy.stats().requests - reads
            XCTAssertLessThan(batchGets, groups, "\(prefix): groups of new items were not read first")

            var options = DynamoDBStore.Options()
            options.tablePrefix = prefix
            let store = try DynamoDBStore(client: try client(), options: options)
            XCTAssertTrue(try store.prepareToRead(try SampleModel.model()))
            let entity = try SampleModel.checkin()
            var items = 0
            try store.scan(entity) { values in
                items += 1
                guard case .string(let key) = values[entity.hashKeyIndex], let number = Int(key.dropFirst(4)),
                    case .string(let comment) = values[entity.attributeIndex["comment"]!]
                else { return XCTFail("\(values)") }
                XCTAssertEqual(comment, "new \(number)", key)
                XCTAssertEqual(values[entity.versionIndex], .integer(number > fresh ? 2 : 1), key)
            }
            XCTAssertEqual(items, total, prefix)
        }
    }
}
