import Foundation
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

    func place(_ id: String, _ name: String, rating: String?, visits: Int64, created: Int64, latitude: Double? = nil) -> Item {
        var item = Item(["locationId": .string(id), "name": .string(name), "visits": .integer(visits), "createdAt": .date(created)])
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
        XCTAssertEqual(ids(try locations.fetch(ItemQuery(.above("rating", .decimal("9"))))), ["a", "b"], "decimals compare as numbers")
        XCTAssertEqual(ids(try locations.fetch(ItemQuery(.equals("rating", .decimal("4.5"))))), ["d"], "4.50 is 4.5")
        XCTAssertEqual(ids(try locations.fetch(ItemQuery(.isNull("rating")))), ["c"])
        XCTAssertEqual(ids(try locations.fetch(ItemQuery(sort: [.descending("rating")]))), ["b", "a", "d", "c"], "nulls last descending")
        XCTAssertEqual(ids(try locations.fetch(ItemQuery(.and([.equals("visits", .integer(3)), .atLeast("createdAt", .date(2_000))])))),
                       ["a", "c"])
        XCTAssertEqual(ids(try locations.fetch(ItemQuery(.isIn("name", [.string("beta"), .string("Delta"), .null]),
                                                         sort: [.ascending("name")]))), ["d", "b"], "text by its bytes: D before b")
        XCTAssertEqual(ids(try locations.fetch(ItemQuery(sort: [.ascending("visits"), .descending("createdAt")], limit: 3))),
                       ["b", "a", "c"])
        XCTAssertEqual(ids(try locations.fetch(ItemQuery(.atMost("visits", .integer(0))))), [])
        XCTAssertEqual(ids(try locations.fetch(ItemQuery(.equals("name", .string("x' OR '1'='1"))))), [], "values are parameters")

        XCTAssertThrowsError(try locations.fetch(ItemQuery(.equals("nope", .integer(1))))) { error in
            XCTAssertEqual(error as? ItemError, .unknownAttribute(entity: "Location", attribute: "nope"))
        }
        XCTAssertThrowsError(try locations.fetch(ItemQuery(.above("visits", .string("3"))))) { error in
            guard case .invalid(_, "visits", .type, _)? = error as? ItemError else { return XCTFail("\(error)") }
        }
    }

    func testRelatedItemsFollowARelationship() throws {
        try locations.insert([place("a", "Alpha", rating: nil, visits: 0, created: 0), place("b", "Beta", rating: nil, visits: 0, created: 0)])
        let checkins = try store.items("Checkin")
        for (id, location, time) in [("c1", "a", 3), ("c2", "b", 1), ("c3", "a", 2)] {
            try checkins.insert(Item(["checkinId": .string(id), "locationId": .string(location), "checkinTime": .date(Int64(time))]))
        }
        let ofA = try checkins.fetch(relatedTo: .string("a"), through: "location", sort: [.ascending("checkinTime")])
        XCTAssertEqual(ofA.map { "\($0["checkinId"])" }, ["c3", "c1"])
        XCTAssertThrowsError(try checkins.fetch(relatedTo: .string("a"), through: "checkins"))
    }

    /// Random queries over random items: SQLite's answer is the in-memory evaluation's.
    func testSQLAnswersAsTheInMemoryEvaluationOnRandomQueries() throws {
        var random = SystemRandomNumberGenerator()
        let names = ["alpha", "Alpha", "beta", "é", "e", ""]
        let ratings: [String?] = [nil, "0", "4.50", "4.5", "10", "9.99", "-1", "100.000"]
        try locations.insert((0..<120).map { index in
            place("l\(index)", names.randomElement(using: &random)!, rating: ratings.randomElement(using: &random)!,
                  visits: Int64.random(in: -3...3, using: &random), created: Int64.random(in: 0...5, using: &random) * 1_000,
                  latitude: Bool.random(using: &random) ? nil : Double(Int.random(in: -2...2, using: &random)) / 2)
        })
        let inMemory = ScanOnly(sqlite)
        let entity = locations.entity
        func value(_ attribute: String) -> Value {
            switch attribute {
            case "name": return .string(names.randomElement(using: &random)!)
            case "rating": return ratings.randomElement(using: &random)!.map(Value.decimal) ?? .integer(Int64.random(in: 0...10, using: &random))
            case "visits": return .integer(Int64.random(in: -3...3, using: &random))
            case "latitude": return .double(Double(Int.random(in: -2...2, using: &random)) / 2)
            default: return .date(Int64.random(in: 0...5, using: &random) * 1_000)
            }
        }
        func filter(_ depth: Int) -> ItemFilter {
            let attribute = ["name", "rating", "visits", "latitude", "createdAt"].randomElement(using: &random)!
            switch Int.random(in: 0...(depth > 0 ? 8 : 7), using: &random) {
            case 0: return .equals(attribute, value(attribute))
            case 1: return .below(attribute, value(attribute))
            case 2: return .atMost(attribute, value(attribute))
            case 3: return .above(attribute, value(attribute))
            case 4: return .atLeast(attribute, value(attribute))
            case 5: return .isIn(attribute, (0..<Int.random(in: 0...3, using: &random)).map { _ in value(attribute) })
            case 6: return .isNull(attribute)
            case 7: return .isNotNull(attribute)
            default: return .and((0..<Int.random(in: 0...3, using: &random)).map { _ in filter(depth - 1) })
            }
        }
        for _ in 0..<300 {
            let sort = (0..<Int.random(in: 0...2, using: &random)).map { _ -> SortKey in
                let attribute = ["name", "rating", "visits", "latitude", "createdAt"].randomElement(using: &random)!
                return Bool.random(using: &random) ? .ascending(attribute) : .descending(attribute)
            }
            let query = try ItemQuery(Bool.random(using: &random) ? filter(2) : nil, sort: sort,
                                      limit: Bool.random(using: &random) ? Int.random(in: 0...50, using: &random) : nil).checked(for: entity)
            var fromSQL: [[Value]] = [], fromScan: [[Value]] = []
            try sqlite.items(matching: query, of: entity) { fromSQL.append($0) }
            try inMemory.items(matching: query, of: entity) { fromScan.append($0) }
            XCTAssertEqual(fromSQL, fromScan, "\(query)")
        }
    }
}

/// A store that only scans, so queries take `ItemReading`'s in-memory evaluation.
private final class ScanOnly: ItemReading, @unchecked Sendable {
    let store: SQLiteStore
    init(_ store: SQLiteStore) { self.store = store }
    func contains(_ key: Value, in entity: Entity) throws -> Bool { try store.contains(key, in: entity) }
    func count(of entity: Entity) throws -> Int { try store.count(of: entity) }
    func fetch(_ key: Value, of entity: Entity) throws -> [Value]? { try store.fetch(key, of: entity) }
    func scan(_ entity: Entity, _ body: ([Value]) throws -> Void) throws { try store.scan(entity, body) }
}
