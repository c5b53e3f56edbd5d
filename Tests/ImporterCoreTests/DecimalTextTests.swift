@testable import ImporterCore
import XCTest

/// Decimal literals in canonical form are taken as they are; every other literal is rendered.
/// Both give the same text.
final class DecimalTextTests: XCTestCase {
    func testTheCanonicalShortcutAgreesWithRenderingOnRandomLiterals() {
        var random = SystemRandomNumberGenerator()
        var canonicalSeen = 0
        for _ in 0..<20_000 {
            let text = Self.randomLiteral(&random)
            let rendered = DecimalText.rendered(text)
            XCTAssertEqual(DecimalText.canonical(text), rendered, text)
            XCTAssertEqual(DecimalText.isCanonical(text), rendered == text, text)
            if rendered == text { canonicalSeen += 1 }
        }
        XCTAssertGreaterThan(canonicalSeen, 1_000, "the literals include canonical ones")
    }

    func testEdgeCases() {
        for (text, expected) in [
            ("0", "0"), ("-0", "0"), ("-0.0", "0"), ("-0.5", "-0.5"), ("00.5", "0.5"), ("1.", "1"), (".5", "0.5"),
            ("12.50", "12.5"), ("+3", "3"), ("1e2", "100"), ("", nil), ("-", nil), ("1.2.3", nil), ("١", nil),
        ] as [(String, String?)] {
            XCTAssertEqual(DecimalText.canonical(text), expected, text)
        }
    }

    private static func randomLiteral(_ random: inout SystemRandomNumberGenerator) -> String {
        let digits = "0123456789"
        func run(_ range: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: range, using: &random)).map { _ in digits.randomElement(using: &random)! })
        }
        var text = ["", "", "-", "+"].randomElement(using: &random)!
        text += Bool.random(using: &random) ? run(1...1) : run(0...6)
        if Bool.random(using: &random) { text += "." + run(0...4) }
        if Int.random(in: 0..<10, using: &random) == 0 { text += "e" + String(Int.random(in: -3...3, using: &random)) }
        if Int.random(in: 0..<50, using: &random) == 0 { text += "x" }
        return text
    }
}
