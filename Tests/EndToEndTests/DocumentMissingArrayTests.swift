import Foundation
import TestSupport
import XCTest

/// A re-loaded document without its array's key (docs/documents.md#missing-arrays): by default
/// no children, its stored ones deleted with a warning; with `missing: keep`, they stay.
final class DocumentMissingArrayTests: XCTestCase {
    var directory = ""
    static let model = ImporterProcess.root.appendingPathComponent("SampleData/Orders/Model").path

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func query(_ sql: String) throws -> String { try ImporterProcess.sqlite(directory + "/store.sqlite", sql) }

    private func run(_ orders: [String], missing: String?) throws -> ImporterProcess.Result {
        try (orders.joined(separator: "\n") + "\n").write(
            toFile: directory + "/orders.ndjson", atomically: false, encoding: .utf8)
        let option = missing.map { ", missing: \($0)" } ?? ""
        try """
        model: \(Self.model)
        sources:
          - entity: Order
            path: orders.ndjson
            map: { fields: { currency: currency.code } }
            children:
              lines:
                { entity: Line, position: lineNo\(option),
                  children: { adjustments: { entity: Adjustment\(option), map: { rename: { _id: adjustmentId } } } } }
        destination: { path: store.sqlite }
        report: { directory: reports }
        """.write(toFile: directory + "/pipeline.yaml", atomically: false, encoding: .utf8)
        return try ImporterProcess.run(["run", directory + "/pipeline.yaml"])
    }

    /// An order; `lines` nil leaves the key out, and a line's adjustments nil leave theirs out.
    private func order(_ id: String, lines: [[String]?]?) -> String {
        let head =
            "{\"orderId\":\"\(id)\",\"placedAt\":\"2026-03-02T09:15:00Z\",\"customer\":\"c\",\"currency\":{\"code\":\"EUR\"}"
        guard let lines else { return head + "}" }
        let items = lines.enumerated().map { index, adjustments in
            let list = adjustments.map { ids in
                ",\"adjustments\":[" + ids.map { "{\"_id\":\"\($0)\",\"amount\":-1}" }.joined(separator: ",") + "]"
            }
            return "{\"sku\":\"s\(index)\",\"quantity\":1,\"price\":1.5\(list ?? "")}"
        }
        return head + ",\"lines\":[" + items.joined(separator: ",") + "]}"
    }

    private var stored: [String] {
        [order("O1", lines: [["a1", "a2"], []]), order("O2", lines: [["b1"]]), order("O3", lines: [[]])]
    }

    func testByDefaultADocumentWithoutItsArrayDeletesItsStoredChildrenAndTheRunSaysSo() throws {
        XCTAssertEqual(try run(stored, missing: nil).status, 0)
        let result = try run(
            [order("O1", lines: nil), order("O2", lines: [nil]), order("O3", lines: [[]])], missing: nil)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try query("SELECT orderId || '/' || lineNo FROM Line ORDER BY 1"), "O2/0\nO3/0")
        XCTAssertEqual(try query("SELECT count(*) FROM Adjustment"), "0")
        let summary = result.stdout + result.stderr
        XCTAssertTrue(
            summary.contains("warning: 2 stored Line item(s) of 1 document(s) without a 'lines' key were deleted"),
            summary)
        XCTAssertTrue(
            summary.contains(
                "warning: 1 stored Adjustment item(s) of 1 document(s) without a 'adjustments' key were deleted"),
            summary)
        let report = try ImporterProcess.report(in: directory + "/reports")
        XCTAssertEqual((report.object("deletes")["warnings"] as? [String])?.count, 2, "\(report)")
    }

    func testWithKeepADocumentWithoutItsArrayKeepsItsStoredChildrenAndAnEmptyArrayStillEmptiesThem() throws {
        XCTAssertEqual(try run(stored, missing: "keep").status, 0)
        let result = try run(
            [order("O1", lines: nil), order("O2", lines: [nil]), order("O3", lines: [])], missing: "keep")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            try query("SELECT orderId || '/' || lineNo FROM Line ORDER BY 1"), "O1/0\nO1/1\nO2/0",
            "O1 left its lines out: kept; O3's empty array: its line deleted")
        XCTAssertEqual(try query("SELECT adjustmentId FROM Adjustment ORDER BY 1"), "a1\na2\nb1")
        XCTAssertFalse((result.stdout + result.stderr).contains("warning:"), result.stdout + result.stderr)
    }

    func testAnUnknownMissingValueIsRefusedWithTheChoices() throws {
        let result = try run(stored, missing: "ignore")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("missing must be empty"), result.stderr)
    }
}
