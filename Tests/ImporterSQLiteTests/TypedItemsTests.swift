import Foundation
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// Typed stores (`ItemStore.items(Location.self)`) on a real SQLite file, with the sample
/// Locations model: Codable values in and out, mismatches refused when the store is opened.
final class TypedItemsTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "typed-\(UUID().uuidString)"
    var store: ItemStore!

    struct Location: Codable, Equatable {
        var locationId: String
        var name: String
        var latitude: Double?
        var createdAt: Date
        var active: Bool
        var rating: Decimal?
        var visits: Int32
        var version: Int64?
    }

    /// Property names of its own, through `CodingKeys`.
    struct Checkin: Codable, Equatable {
        enum CodingKeys: String, CodingKey {
            case id = "checkinId", locationId, checkinTime, comment, stars = "rating", version
        }
        var id: String
        var locationId: String
        var checkinTime: Date
        var comment: String?
        var stars: Int16?
        var version: Int64?
    }

    override func setUpWithError() throws {
        let modelPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        store = try ItemStore(
            store: SQLiteStore(path: directory + "/typed.sqlite"), model: try ModelLoader.load(path: modelPath).newest)
    }

    override func tearDown() {
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    let created = Date(timeIntervalSince1970: 1_700_000_000.123)

    func testValuesRoundTripWithTheirVersionsAndTheModelsRules() throws {
        let locations = try store.items(Location.self)
        let new = Location(
            locationId: "a", name: "Alpha", latitude: 1.5, createdAt: created, active: false,
            rating: Decimal(string: "4.50"), visits: 3, version: nil)
        let inserted = try locations.insert(new)
        var expected = new
        expected.version = 1
        XCTAssertEqual(inserted, expected)
        XCTAssertEqual(try locations.fetch(.string("a")), expected)
        let untyped = try store.items("Location").fetch(.string("a"))
        XCTAssertEqual(untyped?["createdAt"], .date(1_700_000_000_123))
        XCTAssertEqual(untyped?["rating"], .decimal("4.5"), "a Decimal as its shortest exact text")

        var renamed = inserted
        renamed.name = "Alpha 2"
        XCTAssertEqual(try locations.update(renamed).version, 2)
        XCTAssertThrowsError(try locations.update(inserted)) { error in
            XCTAssertEqual(
                error as? ItemError, .conflict(entity: "Location", key: .string("a"), stored: 2, incoming: 1))
        }
        XCTAssertThrowsError(
            try locations.insert(
                Location(
                    locationId: "b", name: "", latitude: 91, createdAt: created,
                    active: true, rating: nil, visits: 0, version: nil))
        ) { error in
            guard case .invalid(_, let field, let reason, _)? = error as? ItemError else { return XCTFail("\(error)") }
            XCTAssertEqual(field, "latitude")
            XCTAssertEqual(reason, .range)
        }

        let checkins = try store.items(Checkin.self)
        let checkin = try checkins.insert(
            Checkin(id: "c1", locationId: "a", checkinTime: created, comment: nil, stars: 4, version: nil))
        XCTAssertEqual(checkin.version, 1)
        XCTAssertEqual(
            try store.items("Checkin").fetch(.string("c1"))?["rating"], .integer(4), "stars is stored as rating")
        XCTAssertEqual(try checkins.fetchAll(), [checkin])

        try locations.delete(try XCTUnwrap(try locations.fetch(.string("a"))))
        XCTAssertEqual(try locations.count(), 0)
        XCTAssertEqual(try checkins.count(), 0, "the delete rule (cascade) applies")
    }

    func testMismatchesAreRefusedWhenTheStoreIsOpenedNamingBothSides() throws {
        struct NoSuchAttribute: Codable {
            var locationId: String; var name: String; var createdAt: Date; var nickname: String?
        }
        struct WrongType: Codable { var locationId: String; var name: Int; var createdAt: Date }
        struct TooNarrow: Codable { var locationId: String; var name: String; var createdAt: Date; var visits: Int16 }
        struct NotOptional: Codable {
            var locationId: String; var name: String; var createdAt: Date; var latitude: Double
        }
        struct NoKey: Codable { var name: String; var createdAt: Date }
        struct NoRequired: Codable { var locationId: String; var createdAt: Date }
        struct Nested: Codable { var locationId: String; var name: String; var createdAt: Date; var tags: [String]? }
        let cases: [(String, () throws -> Void)] = [
            (
                "property nickname names no attribute of Location",
                { _ = try self.store.items(NoSuchAttribute.self, entity: "Location") }
            ),
            (
                "property name is a Int, which cannot hold Location.name (string)",
                { _ = try self.store.items(WrongType.self, entity: "Location") }
            ),
            (
                "property visits is a Int16, which cannot hold Location.visits (int32)",
                { _ = try self.store.items(TooNarrow.self, entity: "Location") }
            ),
            (
                "property latitude is not optional, but Location.latitude (double) may be null",
                { _ = try self.store.items(NotOptional.self, entity: "Location") }
            ),
            (
                "no property holds the key attribute Location.locationId",
                { _ = try self.store.items(NoKey.self, entity: "Location") }
            ),
            (
                "no property holds Location.name, which is required",
                { _ = try self.store.items(NoRequired.self, entity: "Location") }
            ),
            (
                "property tags is a Array<String>, which no attribute type holds",
                { _ = try self.store.items(Nested.self, entity: "Location") }
            ),
        ]
        for (expected, open) in cases {
            XCTAssertThrowsError(try open()) { error in
                guard case .mapping(_, let entity, let message)? = error as? ItemError else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(entity, "Location")
                XCTAssertTrue(message.hasPrefix(expected), message)
            }
        }
        XCTAssertThrowsError(try store.items(WrongType.self)) { error in
            XCTAssertEqual(
                error as? ItemError, .unknownEntity("WrongType"), "the entity is the type's name unless given")
        }
    }

    func testAMappingStoresATypeThatDoesNotMatchTheEntity() throws {
        struct Place: Equatable { var id: String; var title: String }
        struct PlaceMapping: ItemMapping {
            var entity: String { "Location" }
            func item(from place: Place) -> Item {
                Item(["locationId": .string(place.id), "name": .string(place.title), "createdAt": .date(0)])
            }
            func element(from item: Item) -> Place {
                guard case .string(let id) = item["locationId"], case .string(let title) = item["name"] else {
                    return Place(id: "", title: "")
                }
                return Place(id: id, title: title)
            }
        }
        let places = try store.items(mapping: PlaceMapping())
        XCTAssertEqual(try places.insert(Place(id: "p", title: "Park")), Place(id: "p", title: "Park"))
        XCTAssertEqual(try store.items("Location").fetch(.string("p"))?["version"], .integer(1))
        XCTAssertEqual(try places.fetchAll(), [Place(id: "p", title: "Park")])
    }

    func testAStorageLimitKeepsTheNewestAndAppliesTheDeleteRules() throws {
        struct Recent: Codable, Equatable {
            var locationId: String
            var name: String
            var createdAt: Date
            var active: Bool
            var version: Int64?
            var label: String { name + "!" }
        }
        func recent(_ id: String, at seconds: Double) -> Recent {
            Recent(
                locationId: id, name: "Place \(id)", createdAt: Date(timeIntervalSince1970: seconds), active: true,
                version: nil)
        }
        let places = try store.items(Recent.self, entity: "Location", limit: 3, by: \.createdAt)
        XCTAssertEqual(places.items.limit, StorageLimit(count: 3, attribute: "createdAt"))
        try places.insert([recent("l1", at: 1_001), recent("l0", at: 1_000), recent("l2", at: 1_002)])
        let checkins = try store.items(Checkin.self)
        try checkins.insert(
            Checkin(id: "c1", locationId: "l1", checkinTime: created, comment: nil, stars: nil, version: nil))

        try places.insert(recent("l3", at: 1_003))
        XCTAssertEqual(Set(try places.fetchAll().map(\.locationId)), ["l1", "l2", "l3"], "the oldest (l0) is removed")
        try places.upsert([recent("l4", at: 1_004), recent("l5", at: 1_005)])
        XCTAssertEqual(Set(try places.fetchAll().map(\.locationId)), ["l3", "l4", "l5"])
        XCTAssertEqual(try checkins.count(), 0, "l1's check-in went with it (cascade)")
        try places.insert(recent("old", at: 1))
        XCTAssertEqual(
            Set(try places.fetchAll().map(\.locationId)), ["l3", "l4", "l5"],
            "older than every kept item: removed at once")

        XCTAssertThrowsError(try store.items(Recent.self, entity: "Location", limit: 3, by: \.label)) { error in
            guard case .mapping(_, "Location", let message)? = error as? ItemError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("must be a stored property"), message)
        }
        XCTAssertThrowsError(try store.items("Location", limit: StorageLimit(count: 3, attribute: "nope"))) { error in
            XCTAssertEqual(error as? ItemError, .unknownAttribute(entity: "Location", attribute: "nope"))
        }
        let byName = try store.items(Recent.self, entity: "Location", limit: 2, by: \.name)
        XCTAssertEqual(byName.items.limit?.attribute, "name")
    }
}
