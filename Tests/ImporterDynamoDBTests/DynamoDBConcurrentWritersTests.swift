import Foundation
import ImporterCore
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// Two importer processes updating the same items at once: the conditional writes let exactly
/// one update of each item win; the other is met as a conflict and resolved by policy (here
/// `error`: rejected) — never silently overwritten, as the AWS Persistence Framework did.
final class DynamoDBConcurrentWritersTests: MotoTestCase {
    func testTwoProcessesUpdatingTheSameItemsLoseNoUpdate() throws {
        let count = 2000
        let server = try server()
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ImporterBinary.environment(server)
        let write = "{ mode: upsert, versions: check, mergePolicy: error, transactional: false, concurrency: 4 }"

        let base = directory + "/base.ndjson"
        try TestPipelines.checkins(count).write(toFile: base, atomically: false, encoding: .utf8)
        let load = try ImporterBinary.run(
            [
                "run",
                try TestPipelines.write(
                    in: directory, name: "base", checkins: base,
                    prefix: "race-", write: write), "--quiet",
            ],
            environment: environment)
        XCTAssertEqual(load.status, 0, load.output)

        // Both writers base every record on version 1, as two jobs that read the same state would.
        var processes: [Process] = []
        for writer in ["A", "B"] {
            let dump = directory + "/\(writer).ndjson"
            try TestPipelines.checkins(count, comment: { "\(writer) \($0)" }, version: { _ in 1 })
                .write(toFile: dump, atomically: false, encoding: .utf8)
            let pipeline = try TestPipelines.write(
                in: directory, name: writer, checkins: dump, prefix: "race-", write: write)
            processes.append(
                try ImporterBinary.process(
                    ["run", pipeline, "--quiet"], environment: environment,
                    log: URL(fileURLWithPath: directory + "/\(writer).log")))
        }
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }

        var won: [String: Set<String>] = [:]
        var total = Counts()
        for writer in ["A", "B"] {
            let report = try ImporterBinary.report(directory + "/reports-\(writer)")
            XCTAssertEqual(report.number("totals", "read"), count + 500)
            XCTAssertEqual(
                report.number("totals", "updated") + report.number("totals", "rejected"), count,
                "every Checkin of \(writer) either won or was rejected as a conflict")
            XCTAssertEqual(report.number("totals", "conflicts"), report.number("totals", "rejected"))
            total.updated += report.number("totals", "updated")
            total.rejected += report.number("totals", "rejected")
            let rejects = try String(contentsOfFile: directory + "/reports-\(writer)/rejects.ndjson", encoding: .utf8)
            var lost = Set<String>()
            for line in rejects.split(separator: "\n") {
                let reject = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
                XCTAssertEqual(reject["reason"] as? String, "conflict", "\(reject)")
                lost.insert(reject["key"] as? String ?? "?")
            }
            won[writer == "A" ? "B" : "A"] = lost
        }
        XCTAssertEqual(total.updated, count, "each item updated exactly once")
        XCTAssertEqual(total.rejected, count, "each item's other update met as a conflict")
        XCTAssertGreaterThan(min(won["A"]!.count, won["B"]!.count), 0, "both writers won some items (they ran at once)")

        var options = DynamoDBStore.Options()
        options.tablePrefix = "race-"
        let store = try DynamoDBStore(client: try client(), options: options)
        XCTAssertTrue(try store.prepareToRead(try SampleModel.model()))
        let checkin = try SampleModel.checkin()
        var items = 0
        try store.scan(checkin) { values in
            items += 1
            guard case .string(let key) = values[checkin.hashKeyIndex],
                case .string(let comment) = values[checkin.attributeIndex["comment"]!]
            else { return XCTFail("unexpected item \(values)") }
            let winner = won["A"]!.contains(key) ? "A" : "B"
            XCTAssertNotEqual(won["A"]!.contains(key), won["B"]!.contains(key), "\(key): exactly one writer won")
            XCTAssertTrue(comment.hasPrefix(winner + " "), "\(key) holds \(comment) but \(winner) won it")
            XCTAssertEqual(values[checkin.versionIndex], .integer(2), key)
        }
        XCTAssertEqual(items, count)
    }
}
