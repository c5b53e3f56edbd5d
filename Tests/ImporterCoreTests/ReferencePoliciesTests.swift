@testable import ImporterCore
import XCTest

/// `nullify` is refused on every key attribute of a reference, composite ones included (docs/pipeline.md#references).
final class ReferencePoliciesTests: XCTestCase {
    func testNullifyIsRefusedWhenAnyAttributeOfACompositeReferenceIsRequired() throws {
        let model = try ModelLoader.parse(text: TestModelText.weather, file: "weather.yaml")
        let alert = try XCTUnwrap(model.entity(named: "Alert"))
        let nullify = ReferencePolicies(all: .nullify, line: 7)
        XCTAssertThrowsError(try nullify.check(for: alert, file: "p.yaml", sourceLine: 3)) { error in
            XCTAssertTrue(
                "\(error)".contains(
                    "p.yaml:7: 'references': nullify on 'reading' would store null in 'hour', which is required"),
                "\(error)")
        }
        XCTAssertNoThrow(try ReferencePolicies(all: .keep).check(for: alert, file: "p.yaml", sourceLine: 3))
    }
}

/// A reading keyed by (stationId, hour) and an alert whose `hour`, the reference's second part, is required.
private enum TestModelText {
    static let weather = """
        model: Weather
        version: 1
        entities:
          Reading:
            hashKey: stationId
            rangeKey: hour
            versionAttribute: version
            attributes: { stationId: { type: string }, hour: { type: int32 }, version: { type: int64 } }
          Alert:
            hashKey: alertId
            versionAttribute: version
            attributes:
              alertId:   { type: string }
              stationId: { type: string }
              hour:      { type: int32, required: true }
              version:   { type: int64 }
            relationships:
              reading: { destination: Reading, key: [stationId, hour] }
        """
}
