import XCTest
@testable import ImporterCore

final class RecordValidatorTests: XCTestCase {
    let model = try! ModelLoader.parse(
        text: """
            model: Shop
            version: 1
            entities:
              Product:
                hashKey: sku
                versionAttribute: version
                attributes:
                  sku:     { type: string, pattern: "[A-Z]{3}-[0-9]+" }
                  name:    { type: string, required: true, maxLength: 5 }
                  price:   { type: decimal, min: 0, max: 100 }
                  size:    { type: string, values: [S, M, L] }
                  stock:   { type: int32, default: 0 }
                  version: { type: int64 }
            """, file: "shop.yaml")

    func validate(_ fields: [String: FieldValue]) -> Result<[Value], Rejection> {
        let entity = model.entities[0]
        let row = entity.attributes.map { fields[$0.name] ?? .null }
        return RecordValidator(entity: entity, dateFormat: .iso8601).validate(row)
    }

    func rejection(_ fields: [String: FieldValue]) -> (RejectReason, String?)? {
        if case .failure(let rejection) = validate(fields) { return (rejection.reason, rejection.field) }
        return nil
    }

    func testAValidRecordGetsDefaults() throws {
        let values = try validate([
            "sku": .text("ABC-1"), "name": .text("Café"), "price": .text("9.90"), "size": .text("M"),
        ]).get()
        XCTAssertEqual(values, [.string("ABC-1"), .string("Café"), .decimal("9.9"), .string("M"), .integer(0), .null])
    }

    func testEachRule() {
        let good: [String: FieldValue] = ["sku": .text("ABC-1"), "name": .text("ok")]
        func with(_ key: String, _ value: FieldValue) -> [String: FieldValue] { good.merging([key: value]) { $1 } }
        XCTAssertNil(rejection(good))
        XCTAssertEqual(rejection(with("sku", .null))?.0, .required)
        XCTAssertEqual(rejection(with("name", .null))?.0, .required)
        XCTAssertEqual(rejection(with("name", .text("toolong")))?.0, .maxLength)
        XCTAssertNil(rejection(with("name", .text("éééé🍕"))))
        XCTAssertEqual(rejection(with("sku", .text("abc-1")))?.0, .pattern)
        XCTAssertEqual(rejection(with("sku", .text("ABC-1x")))?.0, .pattern)
        XCTAssertEqual(rejection(with("price", .text("-0.01")))?.0, .range)
        XCTAssertEqual(rejection(with("price", .text("100.01")))?.0, .range)
        XCTAssertNil(rejection(with("price", .text("100"))))
        XCTAssertEqual(rejection(with("size", .text("XL")))?.0, .values)
        XCTAssertEqual(rejection(with("stock", .text("many")))?.0, .type)
        XCTAssertEqual(rejection(with("stock", .text("many")))?.1, "stock")
    }
}
