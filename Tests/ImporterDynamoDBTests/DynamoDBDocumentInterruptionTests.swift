import Foundation
import TestSupport
import XCTest

/// A documents run into DynamoDB stopped anywhere (docs/writes.md#resume), by `kill -9` or
/// SIGTERM: at its start, between batches (a document's parent sent, its children not yet), once
/// every document is written, while the children that left their documents are deleted one by
/// one, once they are, and a resumed run stopped again. Resumed until it ends, it leaves the
/// tables, the counts and deletes.ndjson of the run that was never stopped.
final class DynamoDBDocumentInterruptionTests: MotoTestCase {
    private var directory = ""
    private var environment: [String: String] = [:]

    override func setUp() {
        directory = ImporterProcess.temporaryDirectory()
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    /// Where a run is stopped: `signal` is sent at the first moment `reached` holds for the
    /// tables and report directory named `name`.
    private struct StopPoint {
        let signal: Int32
        let reached: (_ name: String) throws -> Bool
    }

    func testARunStoppedAtTenPointsResumesToTheTablesCountsAndDeletesOfAnUninterruptedOne() throws {
        // The runs go through a proxy, which forwards only whole requests: a run stopped while
        // it sends one never leaves moto (single-threaded) waiting for its end, so the tables
        // can be read while the run is stopped.
        let server = try server()
        let proxy = try FaultProxy(upstream: server.endpoint, rates: .init(), operations: [])
        defer { proxy.stop() }
        environment = ImporterBinary.environment(server, endpoint: proxy.endpoint)
        try (Self.orders(lines: 4, refreshed: false).joined(separator: "\n") + "\n").write(
            toFile: directory + "/base.ndjson", atomically: false, encoding: .utf8)
        try (Self.orders(lines: 3, refreshed: true).joined(separator: "\n") + "\n").write(
            toFile: directory + "/refresh.ndjson", atomically: false, encoding: .utf8)
        let reference = try load("reference")
        XCTAssertEqual(reference.lines, 3 * Self.count + 1, "each order's last line deleted but order 5's")

        // The refresh has 7 records per order (3 lines with an adjustment each), committed
        // every 30 or so.
        let records = 7 * Self.count
        let written = { (share: Int) in { (name: String) in self.checkpointedRecords(name) >= records * share / 100 } }
        let deleting = { (name: String) in try self.lineCount(name) < 4 * Self.count }
        let replaced = { (name: String) in try self.lineCount(name) == 3 * Self.count + 1 }
        let begun = { (name: String) in FileManager.default.fileExists(atPath: self.directory + "/reports-\(name)") }
        let stops: [(name: String, points: [StopPoint])] = [
            ("kill-at-start", [StopPoint(signal: SIGKILL, reached: begun)]),
            ("term-at-start", [StopPoint(signal: SIGTERM, reached: begun)]),
            ("kill-15", [StopPoint(signal: SIGKILL, reached: written(15))]),
            ("term-35", [StopPoint(signal: SIGTERM, reached: written(35))]),
            ("kill-60", [StopPoint(signal: SIGKILL, reached: written(60))]),
            ("kill-90", [StopPoint(signal: SIGKILL, reached: written(90))]),
            ("kill-deleting", [StopPoint(signal: SIGKILL, reached: deleting)]),
            ("term-deleting", [StopPoint(signal: SIGTERM, reached: deleting)]),
            ("kill-replaced", [StopPoint(signal: SIGKILL, reached: replaced)]),
            (
                "kill-30-then-70",
                [StopPoint(signal: SIGKILL, reached: written(30)), StopPoint(signal: SIGKILL, reached: written(70))]
            ),
        ]
        for (name, points) in stops {
            try load("base", into: name)
            let pipeline = try writePipeline(name, input: "refresh.ndjson")
            var arguments = ["run", pipeline, "--quiet"]
            var status: Int32 = 3
            for point in points {
                let run = try ImporterProcess.signal(arguments, point.signal, environment: environment) { _ in
                    try point.reached(name)
                }
                XCTAssertTrue(run.sent, "\(name): the run ended before the signal")
                status = point.signal == SIGKILL ? 3 : run.status
                XCTAssertTrue([1, 3].contains(status), "\(name): a run stopped by SIGTERM exited \(status)")
                arguments = ["run", pipeline, "--resume", "--quiet"]
            }
            if status == 3 {
                let resumed = try ImporterBinary.run(arguments, environment: environment)
                XCTAssertEqual(resumed.status, 1, "\(name): \(resumed.output)")
            }
            let outcome = try outcome(of: name)
            XCTAssertEqual(outcome.items, reference.items, "\(name): every item and version")
            XCTAssertEqual(outcome.reported.totals, reference.reported?.totals, "\(name): the counts of the whole run")
            XCTAssertEqual(outcome.reported.deletes, reference.reported?.deletes, "\(name): every deleted item listed")
            XCTAssertTrue(outcome.reported.deletesListedOnce, "\(name): a delete listed twice")
            XCTAssertEqual(outcome.reported.rejects, reference.reported?.rejects, "\(name): rejects.ndjson")
        }
    }

    /// Orders of the refresh and of the run it refreshes.
    private static let count = 40

    /// `count` orders of `lines` lines with an adjustment each, as NDJSON lines. The refresh
    /// (3 lines, 4 before) drops each order's last line (its adjustment cascades) and changes
    /// every third order's first line. Order 5's first line changes based on version 7: a
    /// conflict that rejects the order whole, its last line kept.
    private static func orders(lines: Int, refreshed: Bool) -> [String] {
        (0..<count).map { number in
            let id = String(format: "O%05d", number)
            let items = (0..<lines).map { position in
                let quantity = refreshed && number % 3 == 0 && position == 0 ? 9 : 1
                let based = refreshed && number == 5 && position == 0 ? "\"version\":7," : ""
                return
                    "{\(based)\"sku\":\"sku-\(position)\",\"quantity\":\(based.isEmpty ? quantity : 5),\"price\":1.5,\"adjustments\":[{\"_id\":\"\(id)-\(position)\",\"amount\":-1}]}"
            }
            return
                "{\"orderId\":\"\(id)\",\"placedAt\":\"2026-03-02T09:15:00Z\",\"customer\":\"c\",\"currency\":{\"code\":\"EUR\"},\"lines\":[\(items.joined(separator: ","))]}"
        }
    }

    /// Writes pipeline `name`: `input` into the tables `name-Order`, `name-Line` and
    /// `name-Adjustment`, reports in `reports` (reports-`name`), in batches of 30 records.
    private func writePipeline(_ name: String, input: String, reports: String? = nil) throws -> String {
        try """
        model: \(ImporterProcess.root.appendingPathComponent("SampleData/Orders/Model").path)
        sources:
          - entity: Order
            path: \(directory)/\(input)
            map: { fields: { currency: currency.code } }
            children:
              lines:
                entity: Line
                position: lineNo
                children:
                  adjustments: { entity: Adjustment, replace: false, map: { rename: { _id: adjustmentId } } }
        destination: { type: dynamodb, tablePrefix: \(name)-, createTables: true }
        write: { batchSize: 30 }
        report: { directory: \(directory)/\(reports ?? "reports-\(name)") }
        """.write(toFile: directory + "/\(name).yaml", atomically: false, encoding: .utf8)
        return directory + "/\(name).yaml"
    }

    /// Loads the base orders into tables `name`, then (when `name` is "reference") their
    /// refresh, uninterrupted, and returns what that left.
    @discardableResult
    private func load(_ source: String, into name: String? = nil) throws -> (
        items: [String], reported: ReportedOutcome?, lines: Int
    ) {
        let name = name ?? source
        let base = try ImporterBinary.run(
            ["run", try writePipeline(name, input: "base.ndjson", reports: "reports-\(name)-base"), "--quiet"],
            environment: environment)
        XCTAssertEqual(base.status, 0, base.output)
        guard source == "reference" else { return ([], nil, 0) }
        let refresh = try ImporterBinary.run(
            ["run", try writePipeline(name, input: "refresh.ndjson"), "--quiet"], environment: environment)
        XCTAssertEqual(refresh.status, 1, refresh.output)
        let outcome = try outcome(of: name)
        return (outcome.items, outcome.reported, try lineCount(name))
    }

    /// The items of tables `name` (every attribute, in key order), and what report `name` says.
    private func outcome(of name: String) throws -> (items: [String], reported: ReportedOutcome) {
        var items: [String] = []
        for entity in ["Order", "Line", "Adjustment"] {
            items += try scan("\(name)-\(entity)").map { item in
                item.keys.sorted().map { "\($0)=\(item[$0]!)" }.joined(separator: " ")
            }.sorted()
        }
        return (items, try ReportedOutcome(reports: directory + "/reports-\(name)"))
    }

    /// Every item of `table`, its attributes as DynamoDB JSON text.
    private func scan(_ table: String) throws -> [[String: String]] {
        var items: [[String: String]] = []
        var start: Any?
        repeat {
            var request: [String: Any] = ["TableName": table]
            if let start { request["ExclusiveStartKey"] = start }
            let page = try client().sendJSON("Scan", json(request))
            for item in page["Items"] as? [[String: Any]] ?? [] {
                items.append(
                    item.mapValues {
                        String(
                            decoding: try! JSONSerialization.data(withJSONObject: $0, options: .sortedKeys),
                            as: UTF8.self)
                    })
            }
            start = page["LastEvaluatedKey"]
        } while start != nil
        return items
    }

    /// The items of table `name-Line`.
    private func lineCount(_ name: String) throws -> Int {
        let page = try client().sendJSON("Scan", json(["TableName": "\(name)-Line", "Select": "COUNT"]))
        return page["Count"] as? Int ?? -1
    }

    /// Records of the inputs done according to the checkpoint of report directory `name`.
    private func checkpointedRecords(_ name: String) -> Int {
        guard let data = FileManager.default.contents(atPath: directory + "/reports-\(name)/checkpoint.json"),
            let checkpoint = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return 0 }
        return checkpoint.object("checkpoint").objects("inputs").reduce(0) { $0 + $1.int("nextRecord") }
    }
}
