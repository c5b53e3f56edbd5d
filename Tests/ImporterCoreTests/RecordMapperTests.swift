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

    /// Two fields that fill one attribute (a renamed one and one of the attribute's own name):
    /// the later one in the record wins unless it is null, whichever order the header has, and
    /// a buffer mapped into again holds only the new record's fields.
    func testTwoFieldsOfOneAttributeTakeTheRecordsOrder() throws {
        var map = MapConfig()
        map.rename = ["note": "comment"]
        let mapper = try RecordMapper(entity: entity, map: map, file: "p.yaml")
        var fields: [FieldValue] = []
        XCTAssertNil(
            mapper.map(record([("id", .text("a")), ("comment", .text("1")), ("note", .text("2"))]), into: &fields))
        XCTAssertEqual(fields, [.text("a"), .null, .text("2"), .null])
        XCTAssertNil(mapper.map(record([("id", .text("b")), ("comment", .text("1")), ("note", .null)]), into: &fields))
        XCTAssertEqual(fields, [.text("b"), .null, .text("1"), .null])
        XCTAssertNil(
            mapper.map(record([("id", .text("c")), ("note", .text("2")), ("comment", .text("1"))]), into: &fields))
        XCTAssertEqual(fields, [.text("c"), .null, .text("1"), .null])
        XCTAssertNil(mapper.map(record([("id", .text("d")), ("comment", .null)]), into: &fields))
        XCTAssertEqual(fields, [.text("d"), .null, .null, .null])
        XCTAssertNil(mapper.map(record([("checkinTime", .text("2024-01-01"))]), into: &fields))
        XCTAssertEqual(fields, [.null, .text("2024-01-01"), .null, .null])
    }

    /// An object read through paths that no attribute takes whole is dropped by the mapper, so
    /// a document's reader is told to drop it, at every node of its shape.
    func testObjectsReadOnlyThroughPathsAreDroppedForTheReader() {
        var map = MapConfig()
        map.fields = ["comment": "note.text", "checkinTime": "id.at", "version": "revision"]
        XCTAssertEqual(RecordMapper.pathRootsDropped(by: map, on: entity), ["note"])
        map.rename = ["note": "comment"]
        XCTAssertEqual(RecordMapper.pathRootsDropped(by: map, on: entity), [])

        var source = SourceConfig(entity: "Checkin", pattern: "c.ndjson", paths: ["c.ndjson"], format: nil)
        source.map.fields = ["comment": "note.text"]
        var child = ChildSource(path: ["visits"], entity: "Checkin")
        child.map.fields = ["comment": "place.name", "checkinTime": "comment.at"]
        source.children = [child]
        let dropping = DocumentInput.droppingPathRoots(of: source, entities: [entity, entity])
        XCTAssertEqual(dropping.map.drop, ["note"])
        XCTAssertEqual(dropping.children[0].map.drop, ["place"])
        XCTAssertEqual(DocumentShape(dropping).nodes.map(\.droppedRoots), [["note"], ["place"]])
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
