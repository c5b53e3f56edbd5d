@testable import ImporterCore
import XCTest

/// `map.compute` templates (docs/pipeline.md#map): fields, literal braces, nulls.
final class FieldTemplateTests: XCTestCase {
    func testFieldsAreFilledInWithTheirTextAndBracesDoubledAreLiteral() throws {
        let template = try FieldTemplate(parsing: "{{{store}}}-{till}/{number}")
        XCTAssertEqual(template.fields, ["store", "till", "number"])
        let values: [String: FieldValue] = ["store": .text("S1"), "till": .number("7"), "number": .bool(true)]
        XCTAssertEqual(template.render { values[template.fields[$0]] }, "{S1}-7/true")
    }

    func testANullOrMissingFieldMakesTheValueNull() throws {
        let template = try FieldTemplate(parsing: "{a}-{b}")
        XCTAssertNil(template.render { $0 == 0 ? .text("x") : .null })
        XCTAssertNil(template.render { $0 == 0 ? .text("x") : nil })
        XCTAssertEqual(template.render { _ in .text("") }, "-", "an empty text is not null")
    }

    func testBadTemplatesSayWhatIsWrong() {
        let cases: [(String, String)] = [
            ("{a", "no closing"), ("a}", "closes nothing"), ("{}", "not a field name"), ("plain", "no source field"),
            ("{a{b}", "not a field name"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try FieldTemplate(parsing: text), text) { error in
                XCTAssertTrue("\(error)".contains(message), "\(text): \(error)")
            }
        }
    }
}
