import Foundation
import TestSupport
import XCTest

/// A document is written all or nothing, whatever refuses it, and the error limits count
/// documents (docs/documents.md#rejections, docs/reports.md#error-limits).
final class DocumentAllOrNothingTests: XCTestCase {
    var directory = ""
    static let model = ImporterProcess.root.appendingPathComponent("SampleData/Orders/Model").path

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func query(_ sql: String) throws -> String { try ImporterProcess.sqlite(directory + "/store.sqlite", sql) }

    /// Runs the Orders model on `orders` (NDJSON lines) into store.sqlite.
    private func run(_ orders: [String], documents: String = "whole", errors: String = "{ maxErrorRatio: 1 }") throws
        -> ImporterProcess.Result
    {
        try (orders.joined(separator: "\n") + "\n").write(
            toFile: directory + "/orders.ndjson", atomically: false, encoding: .utf8)
        try """
        model: \(Self.model)
        sources:
          - entity: Order
            path: orders.ndjson
            documents: \(documents)
            map: { fields: { currency: currency.code } }
            children:
              lines:
                entity: Line
                position: lineNo
                children:
                  adjustments: { entity: Adjustment, map: { rename: { _id: adjustmentId } } }
        destination: { path: store.sqlite }
        errors: \(errors)
        report: { directory: reports }
        """.write(toFile: directory + "/pipeline.yaml", atomically: false, encoding: .utf8)
        return try ImporterProcess.run(["run", directory + "/pipeline.yaml", "--quiet"])
    }

    private func order(_ id: String, lines: [String]) -> String {
        "{\"orderId\":\"\(id)\",\"placedAt\":\"2026-03-02T09:15:00Z\",\"customer\":\"c\",\"currency\":{\"code\":\"EUR\"},\"lines\":[\(lines.joined(separator: ","))]}"
    }

    private func line(_ sku: String, quantity: Int = 1, adjustments: [String] = []) -> String {
        let list = adjustments.map { "{\"_id\":{\"$oid\":\"\($0)\"},\"amount\":-1}" }.joined(separator: ",")
        return "{\"sku\":\"\(sku)\",\"quantity\":\(quantity),\"price\":1.5,\"adjustments\":[\(list)]}"
    }

    /// Per entity: read, inserted, rejected; and whether read = inserted + unchanged + updated + rejected.
    private func counts() throws -> [String] {
        let report = try ImporterProcess.report(in: directory + "/reports")
        return report.objects("entities").map { entity in
            let counts = entity.object("counts")
            let accounted = ["inserted", "updated", "unchanged", "rejected"].reduce(0) { $0 + counts.int($1) }
            return
                "\(entity.string("entity")!) \(counts.int("read"))/\(counts.int("inserted"))/\(counts.int("rejected"))\(accounted == counts.int("read") ? "" : " unaccounted")"
        }
    }

    /// A store holding O0 (a line, no adjustment: the Adjustment table stays empty, so the next
    /// run loads it in bulk) and a trigger of the user's that refuses a line whose sku is BAD.
    private func storeWithARefusingTrigger() throws {
        XCTAssertEqual(try run([order("O0", lines: [line("a")])]).status, 0)
        _ = try query(
            "CREATE TRIGGER refuse_bad BEFORE INSERT ON Line WHEN NEW.sku = 'BAD' BEGIN SELECT RAISE(ABORT, 'BAD is no sku'); END"
        )
    }

    private var ordersWithARefusedLine: [String] {
        [
            order("O1", lines: [line("a", adjustments: ["65f1a2b3c4d5e6f708190001"])]),
            order(
                "O2",
                lines: [
                    line("a", adjustments: ["65f1a2b3c4d5e6f708190002"]),
                    line("BAD", adjustments: ["65f1a2b3c4d5e6f708190003"]), line("c"),
                ]),
            order("O3", lines: [line("a"), line("b", adjustments: ["65f1a2b3c4d5e6f708190004"])]),
        ]
    }

    func testARecordTheStoreRefusesRejectsItsWholeDocumentAndNoItemOfItIsWritten() throws {
        try storeWithARefusingTrigger()
        let result = try run(ordersWithARefusedLine)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try query("SELECT orderId FROM \"Order\" ORDER BY 1"), "O0\nO1\nO3")
        XCTAssertEqual(try query("SELECT orderId || '/' || lineNo FROM Line ORDER BY 1"), "O0/0\nO1/0\nO3/0\nO3/1")
        XCTAssertEqual(try query("SELECT count(*) FROM Adjustment WHERE orderId = 'O2'"), "0")
        XCTAssertEqual(try query("SELECT count(*) FROM Adjustment"), "2")
        XCTAssertEqual(try counts(), ["Order 3/2/1", "Line 6/3/3", "Adjustment 4/2/2"])
        let rejects = try ImporterProcess.rejects(in: directory + "/reports")
        XCTAssertEqual(rejects.count, 1, "one line for the refused document: \(rejects)")
        XCTAssertEqual(rejects.first?["key"] as? String, "O2")
        XCTAssertTrue(rejects.first?.string("message")?.contains("BAD is no sku") == true, "\(rejects)")
        XCTAssertEqual(try query("PRAGMA integrity_check"), "ok")
    }

    func testUnderPartialARefusedLineIsRejectedWithItsAdjustmentsAndTheRestOfItsOrderIsWritten() throws {
        try storeWithARefusingTrigger()
        let result = try run(ordersWithARefusedLine, documents: "partial")
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try query("SELECT orderId FROM \"Order\" ORDER BY 1"), "O0\nO1\nO2\nO3")
        XCTAssertEqual(
            try query("SELECT orderId || '/' || lineNo FROM Line ORDER BY 1"), "O0/0\nO1/0\nO2/0\nO2/2\nO3/0\nO3/1")
        XCTAssertEqual(try query("SELECT count(*) FROM Adjustment WHERE orderId = 'O2' AND lineNo = 1"), "0")
        XCTAssertEqual(try counts(), ["Order 3/3/0", "Line 6/5/1", "Adjustment 4/3/1"])
    }

    func testOneLargeBadDocumentCountsAsOneErrorAndTheGoodDocumentsAfterItAreStored() throws {
        var orders = [order("BIG", lines: (0..<2000).map { line("s\($0)", quantity: $0 == 1000 ? 0 : 1) })]
        orders += (0..<50).map { order("G\($0)", lines: [line("a")]) }
        let result = try run(orders, errors: "{ maxErrorRatio: 0.05, minRecords: 10 }")
        XCTAssertEqual(result.status, 1, result.stderr)  // 1 of 51 documents: under 5 %
        XCTAssertEqual(try query("SELECT count(*) FROM \"Order\""), "50")
        XCTAssertEqual(try counts(), ["Order 51/50/1", "Line 2050/50/2000", "Adjustment 0/0/0"])
        let report = try ImporterProcess.report(in: directory + "/reports")
        XCTAssertNil(report["abortReason"], "\(report)")
    }

    func testAnErrorLimitCountsDocumentsAndItsMessageHasTheReportsFigures() throws {
        let bad = (0..<3).map { order("B\($0)", lines: [line("a"), line("b", quantity: 0)]) }
        let good = (0..<5).map { order("G\($0)", lines: [line("a")]) }
        let result = try run(bad + good, errors: "{ maxErrors: 2, maxErrorRatio: 1 }")
        XCTAssertEqual(result.status, 3, result.stderr)
        let report = try ImporterProcess.report(in: directory + "/reports")
        let reason = report["abortReason"] as? String ?? ""
        let rejected = report.object("totals").int("rejected")
        XCTAssertEqual(rejected, 9, "\(report)")
        XCTAssertEqual(
            reason, "3 documents rejected (\(rejected) records), more than errors.maxErrors (2)", "\(report)")
    }

    func testAnErrorRatioCountsDocumentsReadNotTheirRecords() throws {
        // Orders O9 and O19 are bad and small: 2 of 20 documents, 4 of 890 records.
        let orders = (0..<20).map { index in
            index % 10 == 9
                ? order("O\(index)", lines: [line("a", quantity: 0)])
                : order("O\(index)", lines: (0..<50).map { line("s\($0)") })
        }
        let result = try run(orders, errors: "{ maxErrorRatio: 0.05, minRecords: 10 }")
        XCTAssertEqual(result.status, 3, result.stderr)
        let report = try ImporterProcess.report(in: directory + "/reports")
        XCTAssertEqual(
            report["abortReason"] as? String,
            "1 of 10 documents rejected (10.0%), more than errors.maxErrorRatio (5.0%)", "\(report)")
        XCTAssertEqual(try query("SELECT count(*) FROM \"Order\" WHERE orderId = 'O9'"), "0")
    }

    func testAChildEntitysExamplesComeFromDifferentDocuments() throws {
        let orders = (0..<4).map { index in
            order("B\(index)", lines: [line("a"), line("b"), line("c", quantity: 0)])
        }
        XCTAssertEqual(try run(orders).status, 1)
        let report = try ImporterProcess.report(in: directory + "/reports")
        let lines = report.objects("errors").first { $0.string("entity") == "Line" }
        let examples = (lines?["examples"] as? [[String: Any]] ?? []).map { $0.int("line") }
        XCTAssertEqual(examples.prefix(3), [1, 2, 3], "one example a document: \(report)")
    }
}
