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
        let model = ImporterBinary.root.appendingPathComponent("SampleData/Orders/Model").path
        try """
        model: \(model)
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
        func load(_ orders: [(String, [String])]) throws -> [String: Any] {
            let lines = orders.map { id, skus in
                let items = skus.map { "{\"sku\":\"\($0)\",\"quantity\":1,\"price\":2.5}" }.joined(separator: ",")
                return
                    "{\"orderId\":\"\(id)\",\"placedAt\":{\"$date\":\"2026-03-02T09:15:00Z\"},\"customer\":\"c\",\"currency\":{\"code\":\"EUR\"},\"lines\":[\(items)]}"
            }
            try (lines.joined(separator: "\n") + "\n").write(
                toFile: directory + "/orders.ndjson", atomically: false, encoding: .utf8)
            let run = try ImporterBinary.run(
                ["run", directory + "/pipeline.yaml", "--quiet"], environment: ImporterBinary.environment(server))
            XCTAssertEqual(run.status, 0, run.output)
            return try ImporterBinary.report(directory + "/reports")
        }
        _ = try load([("O1", ["a", "b", "c"]), ("O2", ["z"])])
        let report = try load([("O1", ["a", "b"])])
        let line = (report["entities"] as? [[String: Any]])?.first { $0["entity"] as? String == "Line" }
        let counts = line?["counts"] as? [String: Any] ?? [:]
        XCTAssertEqual(
            ["unchanged", "deleted"].map { (counts[$0] as? NSNumber)?.intValue }, [2, 1], "\(report)")
        let scan = try client().sendJSON("Scan", json(["TableName": "docs-Line"]))
        let keys = (scan["Items"] as? [[String: [String: String]]] ?? []).map {
            "\($0["orderId"]?["S"] ?? "")/\($0["lineNo"]?["N"] ?? "")"
        }.sorted()
        XCTAssertEqual(keys, ["O1/0", "O1/1", "O2/0"])
    }

    func testInInsertModeAnOrderWithAStoredLineIsRejectedWholeAndNothingOfItIsWritten() throws {
        let server = try server()
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model = ImporterBinary.root.appendingPathComponent("SampleData/Orders/Model").path
        func load(_ orders: [String], mode: String) throws -> (status: Int32, output: String) {
            try """
            model: \(model)
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
            try (orders.joined(separator: "\n") + "\n").write(
                toFile: directory + "/orders.ndjson", atomically: false, encoding: .utf8)
            return try ImporterBinary.run(
                ["run", directory + "/pipeline.yaml", "--quiet"], environment: ImporterBinary.environment(server))
        }
        func order(_ id: String, skus: [String]) -> String {
            let items = skus.map { "{\"sku\":\"\($0)\",\"quantity\":1,\"price\":2.5}" }.joined(separator: ",")
            return
                "{\"orderId\":\"\(id)\",\"placedAt\":\"2026-03-02T09:15:00Z\",\"customer\":\"c\",\"currency\":{\"code\":\"EUR\"},\"lines\":[\(items)]}"
        }
        XCTAssertEqual(try load([order("O1", skus: ["a"])], mode: "upsert").status, 0)
        // O1 is stored: in insert mode it is rejected whole, its new second line not written.
        let run = try load([order("O1", skus: ["a", "b"]), order("O2", skus: ["c"])], mode: "insert")
        XCTAssertEqual(run.status, 1, run.output)
        let rejects = try String(contentsOfFile: directory + "/reports/rejects.ndjson", encoding: .utf8)
            .split(separator: "\n")
        XCTAssertEqual(rejects.count, 1, "one line for the document: \(rejects)")
        XCTAssertTrue(rejects.first?.contains("\"problems\"") == true, "\(rejects)")
        let scan = try client().sendJSON("Scan", json(["TableName": "insert-Line"]))
        let keys = (scan["Items"] as? [[String: [String: String]]] ?? []).map {
            "\($0["orderId"]?["S"] ?? "")/\($0["lineNo"]?["N"] ?? "")"
        }.sorted()
        XCTAssertEqual(keys, ["O1/0", "O2/0"])
    }
}
