@testable import ImporterCore
import XCTest

final class SummaryTableTests: XCTestCase {
    func testCountsAreGroupedByThousands() {
        XCTAssertEqual(
            [0, 7, 999, 1000, 1204, 1_234_567, -12_000].map(SummaryTable.grouped),
            ["0", "7", "999", "1,000", "1,204", "1,234,567", "-12,000"])
    }

    /// Groups of one reason and field at different stages are one line; largest first, at most `shown`.
    func testRejectionsAreListedByReasonAndFieldLargestFirst() {
        func group(
            _ entity: String, _ stage: Stage, _ reason: RejectReason, _ field: String?, _ target: String? = nil,
            _ count: Int
        ) -> RunReport.ErrorGroup {
            RunReport.ErrorGroup(
                entity: entity, stage: stage, reason: reason, field: field, target: target, count: count, examples: [])
        }
        let text = SummaryTable.rejections(
            [
                group("Location", .map, .type, "rating", nil, 3),
                group("Receipt", .validate, .reference, "sku", "Product", 1204),
                group("Location", .validate, .type, "rating", nil, 2),
                group("Receipt", .read, .malformed, nil, nil, 9),
            ], shown: 2)
        XCTAssertEqual(
            text,
            """
            rejected, by reason:
              reference  Receipt.sku → Product  1,204
              malformed  Receipt                    9
              … and 1 more (errors in report.json)

            """)
        XCTAssertEqual(SummaryTable.rejections([]), "")
    }
}
