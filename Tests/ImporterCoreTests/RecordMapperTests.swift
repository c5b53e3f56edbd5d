import XCTest
@testable import ImporterCore

final class RecordMapperTests: XCTestCase {
    let entity = Entity(
        name: "Checkin", table: "Checkin", hashKey: "id", versionAttribute: "version",
        attributes: [
            Attribute(name: "id", type: .string), Attribute(name: "checkinTime", type: .date),
            Attribute(name: "comment", type: .string), Attribute(name: "version", type: .int64),
        ], relationships: [])

    func record(_ fields: [(String, FieldValue)]) -> SourceRecord {
        SourceRecord(line: 1, byteOffset: 0, raw: [], names: fields.map(\.0), values: fields.map(\.1))
    }

    func testRenameDropAndDefaults() throws {
        var map = MapConfig()
        map.rename = ["time": "checkinTime"]
        map.drop = ["debugInfo"]
        map.defaults = ["comment": "none"]
        let mapper = try RecordMapper(entity: entity, map: map, file: "p.yaml")
        let fields = try mapper.map(
            record([("id", .text("a")), ("time", .text("2024-01-01")), ("debugInfo", .composite("{}"))])
        ).get()
        XCTAssertEqual(fields, [.text("a"), .text("2024-01-01"), .text("none"), .null])
        let explicitNull = try mapper.map(record([("id", .text("b")), ("comment", .null)])).get()
        XCTAssertEqual(explicitNull[2], .text("none"))
        let given = try mapper.map(record([("id", .text("c")), ("comment", .text("hi"))])).get()
        XCTAssertEqual(given[2], .text("hi"))
    }

    func testUnknownFieldsAreRejectedUnlessIgnored() throws {
        let strict = try RecordMapper(entity: entity, map: MapConfig(), file: "p.yaml")
        guard case .failure(let rejection) = strict.map(record([("id", .text("a")), ("mood", .text("happy"))])) else {
            return XCTFail("an unknown field was accepted")
        }
        XCTAssertEqual(rejection.reason, .unknownField)
        XCTAssertEqual(rejection.field, "mood")
        var map = MapConfig()
        map.ignoreUnknown = true
        let lenient = try RecordMapper(entity: entity, map: map, file: "p.yaml")
        XCTAssertEqual(try lenient.map(record([("id", .text("a")), ("mood", .text("happy"))])).get()[0], .text("a"))
    }

    func testMapsNamingUnknownAttributesAreConfigurationErrors() {
        var map = MapConfig()
        map.rename = ["time": "when"]
        XCTAssertThrowsError(try RecordMapper(entity: entity, map: map, file: "p.yaml")) { error in
            XCTAssertTrue("\(error)".contains("'when'"), "\(error)")
        }
    }
}
