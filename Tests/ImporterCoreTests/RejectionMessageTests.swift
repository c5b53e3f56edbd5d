@testable import ImporterCore
import XCTest

/// A rejection's message quotes the offending value cut at 200 characters; short messages are
/// kept as they are.
final class RejectionMessageTests: XCTestCase {
    func testALongQuotedValueIsCutAndTheRestKept() {
        let value = String(repeating: "9", count: 5000)
        let rejection = Rejection(
            stage: .validate, reason: .type, field: "latitude", "latitude: '\(value)' is not a number")
        XCTAssertEqual(
            rejection.message, "latitude: '\(String(repeating: "9", count: 200))… (5000 characters)' is not a number")

        let short = Rejection(stage: .validate, reason: .type, "latitude: 'north' is not a number")
        XCTAssertEqual(short.message, "latitude: 'north' is not a number")
    }

    func testAValueThroughCoercionIsCutInItsRejection() {
        let text = String(repeating: "x", count: 1000)
        guard case .failure(let problem) = ValueCoercion.coerce(.text(text), to: .double, dateFormat: .iso8601) else {
            return XCTFail("coerced")
        }
        let rejection = Rejection(stage: .validate, reason: problem.reason, problem.message)
        XCTAssertLessThan(rejection.message.count, 300, rejection.message)
        XCTAssertTrue(rejection.message.contains("(1000 characters)"), rejection.message)
    }
}
