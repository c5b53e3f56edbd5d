import Foundation
import TestSupport
import XCTest

/// Document sources into DynamoDB tables (docs/documents.md): each order's lines are an item
/// collection of the Line table, so re-loading an order reads its lines with a Query and
/// deletes those that left it.
final class DynamoDBDocumentTests: MotoTestCase {
    func testReloadingAnOrderDeletesTheLinesThatLeftItAndNoOtherOrders() throws {
        let server = try server()
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
        model: \(Self.model)
        sources:
          - entity: Order
            path: orders.ndjson
            map: { fields: { currency: currency.code } }
            children:
              lines:
                entity: Line
                position: lineNo
                children:
                  adjustments: { entity: Adjustment, replace: false, map: { rename: { _id: adjustmentId } } }
        destination: { type: dynamodb, tablePrefix: docs-, createTables: true }
        report: { directory: reports }
        """.write(toFile: directory + "/pipeline.yaml", atomically: false, encoding: .utf8)
        func load(_ orders: [String]) throws -> [String: Any] {
            let run = try self.run(orders, in: directory, server: server)
            XCTAssertEqual(run.status, 0, run.output)
            return try ImporterBinary.report(directory + "/reports")
        }
        _ = try load([order("O1", skus: ["a", "b", "c"]), order("O2", skus: ["z"])])
        let report = try load([order("O1", skus: ["a", "b"])])
        let line = (report["entities"] as? [[String: Any]])?.first { $0["entity"] as? String == "Line" }
        let counts = line?["counts"] as? [String: Any] ?? [:]
        XCTAssertEqual(
            ["unchanged", "deleted"].map { (counts[$0] as? NSNumber)?.intValue }, [2, 1], "\(report)")
        XCTAssertEqual(try lineKeys("docs-Line"), ["O1/0", "O1/1", "O2/0"])
    }

    func testInInsertModeAnOrderWithAStoredLineIsRejectedWholeAndNothingOfItIsWritten() throws {
        let server = try server()
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func load(_ orders: [String], mode: String) throws -> (status: Int32, output: String) {
            try """
            model: \(Self.model)
            sources:
              - entity: Order
                path: orders.ndjson
                map: { fields: { currency: currency.code } }
                children:
                  lines: { entity: Line, position: lineNo, replace: false }
            destination: { type: dynamodb, tablePrefix: insert-, createTables: true }
            write: { mode: \(mode) }
            errors: { maxErrorRatio: 1 }
            report: { directory: reports }
            """.write(toFile: directory + "/pipeline.yaml", atomically: false, encoding: .utf8)
            return try self.run(orders, in: directory, server: server)
        }
        XCTAssertEqual(try load([order("O1", skus: ["a"])], mode: "upsert").status, 0)
        // O1 is stored: in insert mode it is rejected whole, its new second line not written.
        let run = try load([order("O1", skus: ["a", "b"]), order("O2", skus: ["c"])], mode: "insert")
        XCTAssertEqual(run.status, 1, run.output)
        let rejects = try String(contentsOfFile: directory + "/reports/rejects.ndjson", encoding: .utf8)
            .split(separator: "\n")
        XCTAssertEqual(rejects.count, 1, "one line for the document: \(rejects)")
        XCTAssertTrue(rejects.first?.contains("\"problems\"") == true, "\(rejects)")
        XCTAssertEqual(try lineKeys("insert-Line"), ["O1/0", "O2/0"])
    }

    func testAChildWithANumberDynamoDBCannotHoldRejectsItsOrderWholeBeforeAnythingIsSent() throws {
        let server = try server()
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writePipeline(in: directory, tablePrefix: "range-", withAdjustments: false)
        let huge = order("O2", skus: ["a", "b"]).replacingOccurrences(of: "\"price\":2.5}]", with: "\"price\":1E+400}]")
        let run = try self.run(
            [order("O1", skus: ["a"]), huge, order("O3", skus: ["c"])], in: directory, server: server)
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertEqual(try lineKeys("range-Line"), ["O1/0", "O3/0"])
        let orders = try client().sendJSON("Scan", json(["TableName": "range-Order"]))
        XCTAssertEqual(orders["Count"] as? Int, 2, "\(orders)")
        let report = try ImporterBinary.report(directory + "/reports")
        XCTAssertEqual((report["totals"] as? [String: Any])?["retries"] as? Int ?? 0, 0, "\(report)")
        let rejects = try String(contentsOfFile: directory + "/reports/rejects.ndjson", encoding: .utf8)
        XCTAssertTrue(rejects.contains("/lines/1/price"), rejects)
        XCTAssertTrue(rejects.contains("\"reason\":\"range\""), rejects)
        XCTAssertTrue(rejects.contains("outside the numbers DynamoDB stores"), rejects)
    }

    func testNoChildIsSentBeforeItsParentWasWrittenAndNoneOfARefusedParent() throws {
        let server = try server()
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writePipeline(in: directory, tablePrefix: "parents-", withAdjustments: true)
        // DynamoDB refuses an empty key as the order is sent: its line (keyed by the order's key)
        // and the line's adjustment (keyed by its own id) must not be sent after it.
        func withAdjustment(_ id: String, _ adjustment: String) -> String {
            order(id, skus: ["a"]).replacingOccurrences(
                of: "\"price\":2.5}", with: "\"price\":2.5,\"adjustments\":[{\"_id\":\"\(adjustment)\",\"amount\":1}]}")
        }
        let run = try self.run(
            [withAdjustment("O1", "adj-1"), withAdjustment("", "adj-2"), withAdjustment("O3", "adj-3")],
            in: directory, server: server)
        XCTAssertEqual(run.status, 1, run.output)
        let adjustments = try client().sendJSON("Scan", json(["TableName": "parents-Adjustment"]))
        let ids = (adjustments["Items"] as? [[String: [String: String]]] ?? []).compactMap { $0["adjustmentId"]?["S"] }
        XCTAssertEqual(ids.sorted(), ["adj-1", "adj-3"])
        XCTAssertEqual(try lineKeys("parents-Line"), ["O1/0", "O3/0"])
    }

    /// Without transactions (BatchWriteItem), an order whose line DynamoDB refuses once the
    /// order is written is left part-written: the report and the summary name it with what was
    /// written of it, and the run exits 1. Under `partial` that is a line rejected alone.
    func testWithoutTransactionsAnOrderWhoseLineIsRefusedAfterItWasWrittenIsReportedPartWritten() throws {
        let server = try server()
        // The proxy refuses a batch holding the line of SKU "refused", as DynamoDB refuses a
        // batch with an item it cannot store; the importer splits it until that line is alone.
        let proxy = try FaultProxy(upstream: server.endpoint, rates: .init(refuseItem: "refused"), operations: [])
        defer { proxy.stop() }
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let orders = [
            order("O1", skus: ["a", "b"]), order("O2", skus: ["c", "refused", "e"]), order("O3", skus: ["d"]),
        ]
        try (orders.joined(separator: "\n") + "\n").write(
            toFile: directory + "/orders.ndjson", atomically: false, encoding: .utf8)
        for documents in ["whole", "partial"] {
            try writePipeline(
                in: directory, tablePrefix: "batch-\(documents)-", withAdjustments: false, documents: documents,
                transactional: false)
            let run = try ImporterBinary.run(
                ["run", directory + "/pipeline.yaml"],
                environment: ImporterBinary.environment(server, endpoint: proxy.endpoint))
            XCTAssertEqual(run.status, 1, run.output)
            XCTAssertEqual(try lineKeys("batch-\(documents)-Line"), ["O1/0", "O1/1", "O2/0", "O2/2", "O3/0"])
            let report = try ImporterBinary.report(directory + "/reports")
            let partWritten = (report["documents"] as? [String: Any])?["partWritten"] as? [[String: Any]]
            guard documents == "whole" else {
                XCTAssertNil(partWritten, "\(report)")
                continue
            }
            XCTAssertEqual(partWritten?.count, 1, "\(report)")
            let document = partWritten?.first ?? [:]
            XCTAssertEqual(document["entity"] as? String, "Order")
            XCTAssertEqual(document["key"] as? String, "O2")
            XCTAssertEqual(document["line"] as? Int, 2)
            XCTAssertEqual(document["written"] as? Int, 3, "the order and two of its lines")
            XCTAssertEqual(document["notWritten"] as? Int, 1)
            XCTAssertEqual(report["exitCode"] as? Int, 1)
            XCTAssertTrue(run.output.contains("warning: 1 documents part-written"), run.output)
            XCTAssertTrue(run.output.contains(#"Order "O2" ("#), run.output)
        }
        XCTAssertGreaterThan(try proxy.stats().refusedBatches, 0)
    }

    /// Another writer puts an item of a document between its read and its transaction: the
    /// transaction fails its condition and applies nothing, and the importer reads the items
    /// again and writes the documents whole.
    func testAnItemAnotherWriterChangesBeforeItsTransactionIsReadAgainAndItsDocumentWrittenWhole() throws {
        let server = try server()
        let credentials = (server.credentials.accessKeyId, server.credentials.secretAccessKey)
        let proxy = try FaultProxy(
            upstream: server.endpoint, rates: .init(changeFirst: "O2", changeCredentials: credentials), operations: [])
        defer { proxy.stop() }
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writePipeline(in: directory, tablePrefix: "changed-", withAdjustments: false)
        // Tables that hold items when the run begins: its writes are conditional (into empty
        // ones they need not be, docs/dynamodb.md#writes).
        XCTAssertEqual(try self.run([order("O9", skus: ["z"])], in: directory, server: server).status, 0)
        let orders = [order("O1", skus: ["a"]), order("O2", skus: ["b", "c"]), order("O3", skus: ["d"])]
        let run = try self.run(orders, in: directory, server: server, endpoint: proxy.endpoint)
        XCTAssertEqual(run.status, 0, run.output)
        let stats = try proxy.stats()
        XCTAssertEqual(stats.changedItems, 1)
        XCTAssertGreaterThanOrEqual(stats.transactions, 2, "the cancelled transaction, and the one sent again")
        XCTAssertEqual(try lineKeys("changed-Line"), ["O1/0", "O2/0", "O2/1", "O3/0", "O9/0"])
        let stored = try client().sendJSON(
            "GetItem", json(["TableName": "changed-Order", "Key": ["orderId": ["S": "O2"]]]))
        let item = stored["Item"] as? [String: [String: String]] ?? [:]
        XCTAssertEqual(item["customer"]?["S"], "c", "\(stored)")
        let report = try ImporterBinary.report(directory + "/reports")
        for entity in report["entities"] as? [[String: Any]] ?? [] {
            let counts = entity["counts"] as? [String: Int] ?? [:]
            let written = ["inserted", "updated", "unchanged"].reduce(0) { $0 + (counts[$1] ?? 0) }
            XCTAssertEqual(counts["read"], written, "\(entity)")
            XCTAssertNil(counts["rejected"].flatMap { $0 > 0 ? $0 : nil }, "\(entity)")
        }
    }

    func testAnItemOver400KBRejectsItsOrderWholeBeforeAnythingOfItIsSent() throws {
        let server = try server()
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writePipeline(in: directory, tablePrefix: "size-", withAdjustments: false)
        let large = order("O2", skus: ["a", "b"]).replacingOccurrences(
            of: "\"customer\":\"c\"", with: "\"customer\":\"\(String(repeating: "x", count: 420_000))\"")
        let run = try self.run([order("O1", skus: ["a"]), large], in: directory, server: server)
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertEqual(try lineKeys("size-Line"), ["O1/0"])
        let rejects = try String(contentsOfFile: directory + "/reports/rejects.ndjson", encoding: .utf8)
        XCTAssertTrue(rejects.contains("\"reason\":\"size\""), String(rejects.prefix(2000)))
        XCTAssertEqual(rejects.split(separator: "\n").count, 1)
    }

    func testAnItemDynamoDBRefusesInTheMiddleOfAnOrderLeavesNothingOfTheOrder() throws {
        let server = try server()
        // The proxy cancels a transaction holding the line of SKU "refused", as DynamoDB cancels
        // one with an item it cannot store: nothing the importer can know before sending.
        let proxy = try FaultProxy(upstream: server.endpoint, rates: .init(refuseItem: "refused"), operations: [])
        defer { proxy.stop() }
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let orders = [order("O1", skus: ["a", "b"]), order("O2", skus: ["c", "refused"]), order("O3", skus: ["d"])]
        for documents in ["whole", "partial"] {
            try writePipeline(in: directory, tablePrefix: "\(documents)-", withAdjustments: false, documents: documents)
            let run = try self.run(orders, in: directory, server: server, endpoint: proxy.endpoint)
            XCTAssertEqual(run.status, 1, run.output)
            let report = try ImporterBinary.report(directory + "/reports")
            for entity in report["entities"] as? [[String: Any]] ?? [] {
                let counts = entity["counts"] as? [String: Int] ?? [:]
                XCTAssertEqual(
                    counts["read"], (counts["inserted"] ?? 0) + (counts["rejected"] ?? 0), "\(documents): \(entity)")
            }
            let rejects = try String(contentsOfFile: directory + "/reports/rejects.ndjson", encoding: .utf8)
            XCTAssertEqual(rejects.split(separator: "\n").count, 1, rejects)
            XCTAssertTrue(rejects.contains("refused by the proxy"), rejects)
            let stored = try client().sendJSON("Scan", json(["TableName": "\(documents)-Order"]))
            if documents == "whole" {
                // The three orders went out in one transaction; cancelled, it was sent again without O2.
                XCTAssertEqual(try lineKeys("whole-Line"), ["O1/0", "O1/1", "O3/0"], "nothing of O2")
                XCTAssertEqual(stored["Count"] as? Int, 2, "\(stored)")
                XCTAssertEqual(
                    [try proxy.stats().transactions, try proxy.stats().refusedTransactions], [2, 1],
                    "each order in one transaction with its lines")
            } else {
                XCTAssertEqual(try lineKeys("partial-Line"), ["O1/0", "O1/1", "O2/0", "O3/0"], "all but the line")
                XCTAssertEqual(stored["Count"] as? Int, 3, "\(stored)")
            }
        }
    }

    private static let model = ImporterBinary.root.appendingPathComponent("SampleData/Orders/Model").path

    /// Writes `directory`/pipeline.yaml: orders and their lines (and the lines' adjustments, not
    /// replaced: keyed by their own id) into tables named with `tablePrefix`.
    private func writePipeline(
        in directory: String, tablePrefix: String, withAdjustments: Bool, documents: String = "whole",
        transactional: Bool = true
    ) throws {
        let adjustments =
            withAdjustments
            ? ", children: { adjustments: { entity: Adjustment, replace: false, map: { rename: { _id: adjustmentId } } } }"
            : ""
        try """
        model: \(Self.model)
        sources:
          - entity: Order
            path: orders.ndjson
            documents: \(documents)
            map: { fields: { currency: currency.code } }
            children:
              lines: { entity: Line, position: lineNo\(adjustments) }
        destination: { type: dynamodb, tablePrefix: \(tablePrefix), createTables: true }
        write: { transactional: \(transactional) }
        errors: { maxErrorRatio: 1 }
        report: { directory: reports }
        """.write(toFile: directory + "/pipeline.yaml", atomically: false, encoding: .utf8)
    }

    /// An order of the Orders model with a line per SKU, as one NDJSON line.
    private func order(_ id: String, skus: [String]) -> String {
        let items = skus.map { "{\"sku\":\"\($0)\",\"quantity\":1,\"price\":2.5}" }.joined(separator: ",")
        return
            "{\"orderId\":\"\(id)\",\"placedAt\":{\"$date\":\"2026-03-02T09:15:00Z\"},\"customer\":\"c\",\"currency\":{\"code\":\"EUR\"},\"lines\":[\(items)]}"
    }

    /// Writes `orders` to `directory`/orders.ndjson and runs `directory`/pipeline.yaml (against
    /// `endpoint`, the server's by default).
    private func run(_ orders: [String], in directory: String, server: MotoServer, endpoint: URL? = nil) throws -> (
        status: Int32, output: String
    ) {
        try (orders.joined(separator: "\n") + "\n").write(
            toFile: directory + "/orders.ndjson", atomically: false, encoding: .utf8)
        return try ImporterBinary.run(
            ["run", directory + "/pipeline.yaml", "--quiet"],
            environment: ImporterBinary.environment(server, endpoint: endpoint))
    }

    /// The stored lines of `table`, `orderId/lineNo`, sorted.
    private func lineKeys(_ table: String) throws -> [String] {
        let scan = try client().sendJSON("Scan", json(["TableName": table]))
        return (scan["Items"] as? [[String: [String: String]]] ?? []).map {
            "\($0["orderId"]?["S"] ?? "")/\($0["lineNo"]?["N"] ?? "")"
        }.sorted()
    }
}
