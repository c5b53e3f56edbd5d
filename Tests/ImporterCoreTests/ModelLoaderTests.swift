import XCTest
@testable import ImporterCore

final class ModelLoaderTests: XCTestCase {
    static let sampleModel = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleData/Locations/Model").path

    func testSampleModelLoads() throws {
        let versions = try ModelLoader.load(path: Self.sampleModel)
        XCTAssertEqual(versions.versions.map(\.version), [1, 2, 3])
        let model = try XCTUnwrap(versions.version(1))
        XCTAssertEqual(model.name, "Locations")
        XCTAssertEqual(model.entities.map(\.name), ["Location", "Checkin"])
        XCTAssertEqual(model.parentsFirstOrder, ["Location", "Checkin"])
        let location = try XCTUnwrap(model.entity(named: "Location"))
        XCTAssertEqual(location.table, "AWS-Locations")
        XCTAssertEqual(location.attribute(named: "visits")?.defaultValue, .integer(0))
        XCTAssertEqual(location.attribute(named: "active")?.defaultValue, .boolean(true))
        XCTAssertEqual(model.checksum.count, 64)
    }

    func testADirectoryOfVersionsLoadsOldestFirst() throws {
        let directory = NSTemporaryDirectory() + "model-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let v1 = try String(contentsOfFile: Self.sampleModel + "/v1.yaml", encoding: .utf8)
        try v1.write(toFile: directory + "/v1.yaml", atomically: false, encoding: .utf8)
        try v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(
                of: "comment:     { type: string }",
                with: "comment:     { type: string }\n      mood:        { type: string }"
            )
            .write(toFile: directory + "/v2.yaml", atomically: false, encoding: .utf8)
        let versions = try ModelLoader.load(path: directory)
        XCTAssertEqual(versions.versions.map(\.version), [1, 2])
        XCTAssertNotNil(versions.newest.entity(named: "Checkin")?.attribute(named: "mood"))
        XCTAssertNotEqual(versions.versions[0].checksum, versions.versions[1].checksum)
    }

    /// Each broken model: the error names the file, the line and the key at fault.
    func testModelErrorsNameFileLineAndKey() {
        let cases: [(String, String, Int, String)] = [
            ("unknown type", "      name: { type: text }", 10, "unknown type 'text'"),
            ("non-key hash key", "    hashKey: when", 5, "hash key 'when' is a date"),
            ("bad attribute name", "      2name: { type: string }", 10, "not a valid name"),
            ("bad table name", "    table: sqlite_items", 5, "SQLite's own"),
            ("unknown key", "      name: { type: string, colour: red }", 10, "unknown key"),
        ]
        for (label, line, number, message) in cases {
            var lines = Self.baseModel.components(separatedBy: "\n")
            if label == "bad table name" { lines.insert(line, at: number - 1) } else { lines[number - 1] = line }
            assertError(lines.joined(separator: "\n"), line: number, contains: message, label)
        }
    }

    /// Core Data allows a to-one relationship without an inverse; it is a reference all the same.
    func testAToOneRelationshipNeedsNoInverse() throws {
        let text = Self.twoEntities
            .replacingOccurrences(
                of: "    relationships:\n      children: { destination: Child, toMany: true, inverse: parent }\n",
                with: ""
            )
            .replacingOccurrences(of: ", inverse: children", with: "")
        let model = try ModelLoader.parse(text: text, file: "m.yaml")
        let child = try XCTUnwrap(model.entity(named: "Child"))
        XCTAssertEqual(child.toOneRelationships.map(\.name), ["parent"])
        XCTAssertNil(child.toOneRelationships.first?.inverse)
        XCTAssertEqual(model.parentsFirstOrder, ["Parent", "Child"])
        XCTAssertTrue(model.entity(named: "Parent")!.relationships.isEmpty)
    }

    func testRelationshipErrors() {
        assertError(
            Self.baseModel + "\n    relationships:\n      owner: { destination: Person, key: id, inverse: items }",
            line: 13, contains: "destination 'Person' is not an entity", "unknown destination")
        assertError(
            Self.twoEntities.replacingOccurrences(of: ", inverse: parent", with: ""),
            line: 9, contains: "missing 'inverse:'", "missing inverse")
        assertError(
            Self.twoEntities.replacingOccurrences(
                of: "destination: Parent, key: parentId", with: "destination: Parent, toMany: true"),
            line: 9, contains: "many-to-many", "many to many")
    }

    func testVersionAttributeMustBeInt64() {
        assertError(
            Self.baseModel.replacingOccurrences(of: "version: { type: int64 }", with: "version: { type: int32 }"),
            line: 6, contains: "must be int64", "version type")
    }

    private func assertError(
        _ text: String, line: Int, contains message: String, _ label: String, file: StaticString = #filePath,
        sourceLine: UInt = #line
    ) {
        XCTAssertThrowsError(try ModelLoader.parse(text: text, file: "m.yaml"), label, file: file, line: sourceLine) {
            error in
            guard let error = error as? ConfigurationError else {
                return XCTFail("\(label): \(error)", file: file, line: sourceLine)
            }
            XCTAssertEqual(error.file, "m.yaml", label, file: file, line: sourceLine)
            XCTAssertEqual(error.line, line, "\(label): \(error)", file: file, line: sourceLine)
            XCTAssertTrue(error.description.contains(message), "\(label): \(error)", file: file, line: sourceLine)
            XCTAssertTrue(
                error.description.hasPrefix("m.yaml:\(line)"), "\(label): \(error)", file: file, line: sourceLine)
        }
    }

    static let baseModel = """
        model: M
        version: 1
        entities:
          Item:
            hashKey: id
            versionAttribute: version
            attributes:
              id: { type: string }
              when: { type: date }
              name: { type: string }
              version: { type: int64 }
        """

    static let twoEntities = """
        model: M
        version: 1
        entities:
          Parent:
            hashKey: id
            versionAttribute: version
            attributes: { id: { type: string }, version: { type: int64 } }
            relationships:
              children: { destination: Child, toMany: true, inverse: parent }
          Child:
            hashKey: id
            versionAttribute: version
            attributes: { id: { type: string }, parentId: { type: string }, version: { type: int64 } }
            relationships:
              parent: { destination: Parent, key: parentId, inverse: children }
        """
}
