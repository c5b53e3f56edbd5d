import Foundation
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// Staged rows whose keys come in the store index's order are known as such (their table is
/// then built without a sort); the order is SQLite's, by bytes, not Swift's.
final class KeyOrderTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "key-order-\(UUID().uuidString)"

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    func testKeysCompareAsTheStoresIndexOrdersThem() {
        let precomposed = Value.string("\u{E9}"), decomposed = Value.string("e\u{301}")
        XCTAssertEqual(precomposed, decomposed, "Swift takes them for one string")
        XCTAssertTrue(
            KeyOrder.precedes(decomposed, precomposed), "the index orders them by their bytes: 65 CC 81 before C3 A9")
        XCTAssertTrue(KeyOrder.precedes(.string("Z"), .string("a")))
        XCTAssertTrue(KeyOrder.precedes(.string("a"), .string("ab")))
        XCTAssertFalse(KeyOrder.precedes(.string("a"), .string("a")), "strictly")
        XCTAssertTrue(KeyOrder.precedes(.integer(-5), .integer(3)))
        XCTAssertTrue(KeyOrder.precedes(.pair(.string("s1"), .integer(9)), .pair(.string("s2"), .integer(1))))
        XCTAssertTrue(KeyOrder.precedes(.pair(.string("s1"), .integer(1)), .pair(.string("s1"), .integer(2))))
        XCTAssertFalse(
            KeyOrder.precedes(.pair(precomposed, .integer(1)), .pair(decomposed, .integer(2))),
            "hash keys of other bytes are not the same key, whatever their range keys")
        XCTAssertFalse(KeyOrder.precedes(.integer(1), .string("2")), "not known across types")
        XCTAssertFalse(KeyOrder.precedes(.decimal("1"), .decimal("2")), "not known for other types")
    }

    func testTheStagingFileKnowsWhetherAnEntitysRowsCameInKeyOrder() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let model = try ModelLoader.parse(
            text: """
                model: Shop
                version: 1
                entities:
                  Sorted:   { hashKey: id, versionAttribute: version, attributes: { id: { type: string }, version: { type: int64 } } }
                  Unsorted: { hashKey: id, versionAttribute: version, attributes: { id: { type: string }, version: { type: int64 } } }
                  Resumed:  { hashKey: id, versionAttribute: version, attributes: { id: { type: string }, version: { type: int64 } } }
                """, file: "model.yaml")
        let file = try StagedRows(storePath: directory + "/store.sqlite", fresh: true)
        defer { file.close() }
        func rows(_ keys: [String]) -> [(values: [Value], version: Int64)] { keys.map { ([.string($0), .null], 1) } }
        let sorted = try XCTUnwrap(model.entity(named: "Sorted")),
            unsorted = try XCTUnwrap(model.entity(named: "Unsorted"))
        for entity in [sorted, unsorted] { try file.stage(entity, keeping: nil) }

        try file.append(rows(["a", "b", "b0"]), of: sorted)
        try file.append(rows(["c", "d"]), of: sorted)
        try file.append(rows(["k1", "k3"]), of: unsorted)
        try file.append(rows(["k2"]), of: unsorted)  // before the last key of the batch before
        XCTAssertEqual(file.inKeyOrder, ["Sorted"])
        try file.commit()

        // As a resumed run stages: the rows an interrupted run committed, then none of them.
        let resumed = try XCTUnwrap(model.entity(named: "Resumed"))
        try file.stage(resumed, keeping: nil)
        try file.append(rows(["x"]), of: resumed)
        try file.commit()
        try file.stage(resumed, keeping: 1)
        XCTAssertFalse(file.inKeyOrder.contains("Resumed"), "the order of rows an interrupted run staged is not known")
        try file.stage(resumed, keeping: 0)
        XCTAssertTrue(file.inKeyOrder.contains("Resumed"), "no rows kept: nothing unknown")
    }
}
