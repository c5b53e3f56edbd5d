import XCTest
@testable import ImporterCore

/// Numbers a DynamoDB destination cannot hold are rejected at validation, reason `range`
/// (docs/values.md), at every edge of DynamoDB's range and precision.
final class StoreNumberLimitsTests: XCTestCase {
    let entity = try! ModelLoader.parse(
        text: """
            model: Numbers
            version: 1
            entities:
              Reading:
                hashKey: id
                versionAttribute: version
                attributes:
                  id:      { type: string }
                  ratio:   { type: double }
                  amount:  { type: decimal }
                  count:   { type: int64 }
                  version: { type: int64 }
            """, file: "numbers.yaml"
    ).entities[0]

    /// The reason and field `field: text` is rejected with into DynamoDB (nil: accepted), and
    /// whether a SQLite destination (no limits) accepts it.
    private func check(_ field: String, _ text: String) -> (rejection: String?, sqliteAccepts: Bool) {
        let row: [FieldValue] = entity.attributes.map {
            $0.name == "id" ? .text("r") : $0.name == field ? .text(text) : .null
        }
        let dynamoDB = RecordValidator(entity: entity, dateFormat: .iso8601, numberLimits: .dynamoDB).validate(row)
        let sqlite = RecordValidator(entity: entity, dateFormat: .iso8601).validate(row)
        var rejection: String?
        if case .failure(let problem) = dynamoDB { rejection = "\(problem.reason) \(problem.field ?? "")" }
        if case .success = sqlite { return (rejection, true) }
        return (rejection, false)
    }

    func testDoublesOutsideDynamoDBsMagnitudesAreRejectedAndTheEdgesAccepted() {
        for accepted in ["0", "-0", "1e-130", "-1e-130", "9.99e125", "1e125", "1.7976931348623157e125", "0.1"] {
            XCTAssertNil(check("ratio", accepted).rejection, accepted)
        }
        for refused in ["1e200", "1e308", "-1e308", "5e-324", "1e-131", "1e126", "2.5e-200"] {
            let (rejection, sqliteAccepts) = check("ratio", refused)
            XCTAssertEqual(rejection, "range ratio", refused)
            XCTAssertTrue(sqliteAccepts, refused)
        }
    }

    func testDecimalsPastThirtyEightDigitsOrDynamoDBsExponentsAreRejected() {
        let thirtyEight = "9." + String(repeating: "9", count: 37) + "E+125"
        for accepted in [
            "0", "1E-130", "-1E-130", thirtyEight, "12345678901234567890123456789012345678", "1E+125", "100",
        ] {
            XCTAssertNil(check("amount", accepted).rejection, accepted)
        }
        let thirtyNine = "1" + String(repeating: "0", count: 37) + "1"
        for refused in ["1E+400", "1E+126", "1E-131", thirtyNine, "0." + thirtyNine, "-1E+126"] {
            let (rejection, sqliteAccepts) = check("amount", refused)
            XCTAssertEqual(rejection, "range amount", refused)
            XCTAssertTrue(sqliteAccepts, refused)
        }
    }

    func testIntegersAlwaysFit() {
        XCTAssertNil(check("count", "9223372036854775807").rejection)
        XCTAssertNil(check("count", "-9223372036854775808").rejection)
    }

    func testTheMessageNamesTheAttributeAndTheLimits() {
        let row: [FieldValue] = [.text("r"), .null, .text("1E+400"), .null, .null]
        guard
            case .failure(let rejection) = RecordValidator(
                entity: entity, dateFormat: .iso8601, numberLimits: .dynamoDB
            ).validate(row)
        else { return XCTFail("accepted") }
        XCTAssertTrue(rejection.message.hasPrefix("amount: 1000000000"), rejection.message)
        XCTAssertTrue(rejection.message.contains("(401 characters)"), rejection.message)
        XCTAssertTrue(rejection.message.contains("magnitudes 1E-130 to 9.99…E+125"), rejection.message)
    }
}
