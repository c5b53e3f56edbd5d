import Foundation
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// The library API on a real SQLite file, with the sample Locations model.
final class ItemStoreTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "items-\(UUID().uuidString)"
    var store: ItemStore!
    var locations: EntityItems!
    var checkins: EntityItems!

    override func setUpWithError() throws {
        let modelPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        let model = try ModelLoader.load(path: modelPath).newest
        store = try ItemStore(store: SQLiteStore(path: directory + "/items.sqlite"), model: model)
        locations = try store.items("Location")
        checkins = try store.items("Checkin")
    }

    override func tearDown() {
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func location(_ id: String, _ name: String = "Somewhere") -> Item {
        Item(["locationId": .string(id), "name": .string(name), "createdAt": .date(1_700_000_000_000)])
    }

    func checkin(_ id: String, at location: String) -> Item {
        Item(["checkinId": .string(id), "locationId": .string(location), "checkinTime": .date(1_700_000_500_000)])
    }

    func testInsertFetchCountAndDefaults() throws {
        let inserted = try locations.insert(location("a", "Alpha"))
        XCTAssertEqual(inserted["version"], .integer(1))
        XCTAssertEqual(inserted["active"], .boolean(true), "the model's default")
        XCTAssertEqual(try locations.fetch(.string("a")), inserted)
        XCTAssertNil(try locations.fetch(.string("missing")))
        try locations.insert([location("b"), location("c")])
        XCTAssertEqual(try locations.count(), 3)
        XCTAssertEqual(
            Set(try locations.fetchAll().map { $0["locationId"] }), [.string("a"), .string("b"), .string("c")])
        XCTAssertThrowsError(try locations.insert(location("a"))) { error in
            XCTAssertEqual(error as? ItemError, .duplicate(entity: "Location", key: .string("a")))
        }
    }

    func testUpdateFollowsTheVersionRules() throws {
        var item = try locations.insert(location("a", "Alpha"))
        let stale = item
        item["name"] = .string("Alpha 2")
        XCTAssertEqual(try locations.update(item)["version"], .integer(2))
        var conflicting = stale
        conflicting["name"] = .string("Alpha 3")
        XCTAssertThrowsError(try locations.update(conflicting)) { error in
            XCTAssertEqual(
                error as? ItemError, .conflict(entity: "Location", key: .string("a"), stored: 2, incoming: 1))
        }
        XCTAssertThrowsError(
            try locations.update(item),
            "the same write again, based on version 1: a conflict, though its values are stored"
        ) { error in
            XCTAssertEqual(
                error as? ItemError, .conflict(entity: "Location", key: .string("a"), stored: 2, incoming: 1))
        }
        let current = try XCTUnwrap(try locations.fetch(.string("a")))
        XCTAssertEqual(
            try locations.update(current)["version"], .integer(2), "the stored item written as it is: unchanged")
        var blind = location("a", "Blind")
        blind["version"] = .null
        XCTAssertEqual(try locations.update(blind)["version"], .integer(3), "no version: a blind write")
        XCTAssertThrowsError(try locations.update(location("zz"))) { error in
            XCTAssertEqual(error as? ItemError, .notFound(entity: "Location", key: .string("zz")))
        }
        XCTAssertEqual(try locations.upsert(location("new"))["version"], .integer(1))
        XCTAssertEqual(try locations.upsert(location("new", "Changed"))["version"], .integer(2))
    }

    func testInvalidItemsAreRefusedWithTheirFieldAndNothingIsWritten() throws {
        var bad = location("b")
        bad["latitude"] = .double(120)
        XCTAssertThrowsError(try locations.insert([location("a"), bad])) { error in
            guard case .invalid(_, let field, let reason, _)? = error as? ItemError else { return XCTFail("\(error)") }
            XCTAssertEqual(field, "latitude")
            XCTAssertEqual(reason, .range)
        }
        XCTAssertEqual(try locations.count(), 0, "all or none")
        XCTAssertThrowsError(try locations.insert(Item(["locationId": .string("x"), "nmae": .string("typo")]))) {
            error in
            XCTAssertEqual(error as? ItemError, .unknownAttribute(entity: "Location", attribute: "nmae"))
        }
        XCTAssertThrowsError(try checkins.insert(checkin("c1", at: "nowhere"))) { error in
            guard case .invalid(_, "locationId", .reference, _)? = error as? ItemError else {
                return XCTFail("\(error)")
            }
        }
        try locations.insert(location("a"))
        XCTAssertThrowsError(try checkins.insert([checkin("c1", at: "a"), checkin("c1", at: "a")]))
        XCTAssertEqual(try checkins.count(), 0)
        XCTAssertThrowsError(try store.items("Nope")) { XCTAssertEqual($0 as? ItemError, .unknownEntity("Nope")) }
    }

    func testDeleteAppliesTheDeleteRules() throws {
        try locations.insert([location("a"), location("b")])
        try checkins.insert([checkin("c1", at: "a"), checkin("c2", at: "a"), checkin("c3", at: "b")])
        XCTAssertThrowsError(try locations.delete(.string("a"), version: 7)) { error in
            XCTAssertEqual(
                error as? ItemError, .conflict(entity: "Location", key: .string("a"), stored: 1, incoming: 7))
        }
        try locations.delete(.string("a"), version: 1)
        XCTAssertNil(try locations.fetch(.string("a")))
        XCTAssertEqual(try checkins.fetchAll().map { $0["checkinId"] }, [.string("c3")], "Location.checkins cascades")
        XCTAssertThrowsError(try locations.delete(.string("a"))) { error in
            XCTAssertEqual(error as? ItemError, .notFound(entity: "Location", key: .string("a")))
        }
        try checkins.delete(try checkins.fetch(.string("c3"))!)
        XCTAssertEqual(try locations.count(), 1, "deleting a check-in leaves its location")
        XCTAssertEqual(try locations.deleteAll(), 1)
        XCTAssertEqual(try locations.count(), 0)
    }
}
