import Foundation
import ImporterConformance
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// Library queries on SQLite: filters, order and limit as parameterised SQL, checked against
/// the same queries evaluated in memory over a plain scan (what any other store does).
final class ItemQueryTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "query-\(UUID().uuidString)"
    var sqlite: SQLiteStore!
    var store: ItemStore!
    var locations: EntityItems!

    override func setUpWithError() throws {
        let modelPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        sqlite = try SQLiteStore(path: directory + "/query.sqlite")
        store = try ItemStore(store: sqlite, model: try ModelLoader.load(path: modelPath).newest)
        locations = try store.items("Location")
    }

    override func tearDown() {
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func place(_ id: String, _ name: String, rating: String?, visits: Int64, created: Int64, latitude: Double? = nil)
        -> Item
    {
        var item = Item([
            "locationId": .string(id), "name": .string(name), "visits": .integer(visits), "createdAt": .date(created),
        ])
        if let rating { item["rating"] = .decimal(rating) }
        if let latitude { item["latitude"] = .double(latitude) }
        return item
    }

    func ids(_ items: [Item]) -> [String] { items.map { "\($0["locationId"])" } }

    func testFiltersOrderAndLimit() throws {
        try locations.insert([
            place("a", "Alpha", rating: "9.5", visits: 3, created: 3_000),
            place("b", "beta", rating: "10", visits: 1, created: 1_000),
            place("c", "Gamma", rating: nil, visits: 3, created: 2_000),
            place("d", "Delta", rating: "4.50", visits: 7, created: 4_000),
        ])
        XCTAssertEqual(
            ids(try locations.fetch(ItemQuery(.above("rating", .decimal("9"))))), ["a", "b"],
            "decimals compare as numbers")
        XCTAssertEqual(ids(try locations.fetch(ItemQuery(.equals("rating", .decimal("4.5"))))), ["d"], "4.50 is 4.5")
        XCTAssertEqual(ids(try locations.fetch(ItemQuery(.isNull("rating")))), ["c"])
        XCTAssertEqual(
            ids(try locations.fetch(ItemQuery(sort: [.descending("rating")]))), ["b", "a", "d", "c"],
            "nulls last descending")
        XCTAssertEqual(
            ids(
                try locations.fetch(
                    ItemQuery(.and([.equals("visits", .integer(3)), .atLeast("createdAt", .date(2_000))])))),
            ["a", "c"])
        XCTAssertEqual(
            ids(
                try locations.fetch(
                    ItemQuery(
                        .isIn("name", [.string("beta"), .string("Delta"), .null]),
                        sort: [.ascending("name")]))), ["d", "b"], "text by its bytes: D before b")
        XCTAssertEqual(
            ids(try locations.fetch(ItemQuery(sort: [.ascending("visits"), .descending("createdAt")], limit: 3))),
            ["b", "a", "c"])
        XCTAssertEqual(ids(try locations.fetch(ItemQuery(.atMost("visits", .integer(0))))), [])
        XCTAssertEqual(
            ids(try locations.fetch(ItemQuery(.equals("name", .string("x' OR '1'='1"))))), [], "values are parameters")

        XCTAssertThrowsError(try locations.fetch(ItemQuery(.equals("nope", .integer(1))))) { error in
            XCTAssertEqual(error as? ItemError, .unknownAttribute(entity: "Location", attribute: "nope"))
        }
        XCTAssertThrowsError(try locations.fetch(ItemQuery(.above("visits", .string("3"))))) { error in
            guard case .invalid(_, "visits", .type, _)? = error as? ItemError else { return XCTFail("\(error)") }
        }
    }

    func testRelatedItemsFollowARelationship() throws {
        try locations.insert([
            place("a", "Alpha", rating: nil, visits: 0, created: 0),
            place("b", "Beta", rating: nil, visits: 0, created: 0),
        ])
        let checkins = try store.items("Checkin")
        for (id, location, time) in [("c1", "a", 3), ("c2", "b", 1), ("c3", "a", 2)] {
            try checkins.insert(
                Item(["checkinId": .string(id), "locationId": .string(location), "checkinTime": .date(Int64(time))]))
        }
        let ofA = try checkins.fetch(relatedTo: .string("a"), through: "location", sort: [.ascending("checkinTime")])
        XCTAssertEqual(ofA.map { "\($0["checkinId"])" }, ["c3", "c1"])
        XCTAssertThrowsError(try checkins.fetch(relatedTo: .string("a"), through: "checkins"))
    }

    /// Random queries over random items: SQLite's answer is the in-memory evaluation's.
    func testSQLAnswersAsTheInMemoryEvaluationOnRandomQueries() throws {
        XCTAssertEqual(try QueryScenario.run(on: sqlite, entity: locations.entity, queries: 300), [])
    }
}
