import Foundation
import ImporterCore
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// Library queries on DynamoDB: a Query when the filter gives the hash key, else a Scan, each
/// narrowed by a FilterExpression; checked against the same queries evaluated in memory over a
/// plain scan of the same table.
final class DynamoDBQueryTests: MotoTestCase {
    func testQueriesAnswerAsTheInMemoryEvaluationAndAKeyEqualityReadsOnePartition() throws {
        let server = try server()
        let proxy = try FaultProxy(upstream: server.endpoint, rates: .init(), operations: ["Query"])
        defer { proxy.stop() }
        var options = DynamoDBStore.Options()
        options.tablePrefix = "query-"
        options.createTables = true
        let store = DynamoDBStore(client: DynamoDBClient(AWSResolvedConfiguration(
            credentials: server.credentials, region: "us-east-1", endpoint: proxy.endpoint)), options: options)
        let model = try SampleModel.model()
        try store.prepare(for: model)
        let entity = try XCTUnwrap(model.entity(named: "Location"))

        var random = SystemRandomNumberGenerator()
        let names = ["alpha", "Alpha", "beta", "é", "e", "size", ""]  // `size` is a DynamoDB reserved word
        let ratings: [String?] = [nil, "0", "4.50", "10", "9.99", "-1", "100.000"]
        let records = (0..<120).map { index -> PreparedRecord in
            var values = [Value](repeating: .null, count: entity.attributes.count)
            func set(_ name: String, _ value: Value?) { values[entity.attributeIndex[name]!] = value ?? .null }
            set("locationId", .string("l\(index)"))
            set("name", .string(names.randomElement(using: &random)!))
            set("rating", ratings.randomElement(using: &random)!.map(Value.decimal))
            set("visits", .integer(Int64.random(in: -3...3, using: &random)))
            set("createdAt", .date(Int64.random(in: 0...5, using: &random) * 1_000))
            set("active", Bool.random(using: &random) ? nil : .boolean(Bool.random(using: &random)))
            set("latitude", Bool.random(using: &random) ? nil : .double(Double(Int.random(in: -2...2, using: &random)) / 2))
            return PreparedRecord(inputIndex: 0, line: index + 2, byteOffset: 0, raw: [], values: values)
        }
        _ = try store.write(records, of: entity, rules: VersionRules(entity: entity, write: WriteConfig()))
        var stored: [[Value]] = []
        try store.scan(entity) { stored.append($0) }
        XCTAssertEqual(stored.count, records.count)
        let inMemory = ScanOnly(stored)

        let attributes = ["locationId", "name", "rating", "visits", "latitude", "createdAt", "active"]
        func value(_ attribute: String) -> Value {
            switch attribute {
            case "locationId": return .string("l\(Int.random(in: 0..<130, using: &random))")
            case "name": return .string(names.randomElement(using: &random)!)
            case "rating": return ratings.randomElement(using: &random)!.map(Value.decimal) ?? .integer(Int64.random(in: 0...10, using: &random))
            case "visits": return .integer(Int64.random(in: -3...3, using: &random))
            case "latitude": return .double(Double(Int.random(in: -2...2, using: &random)) / 2)
            case "active": return .boolean(Bool.random(using: &random))
            default: return .date(Int64.random(in: 0...5, using: &random) * 1_000)
            }
        }
        func filter(_ depth: Int) -> ItemFilter {
            let attribute = attributes.randomElement(using: &random)!
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
        for _ in 0..<200 {
            var condition = Bool.random(using: &random) ? filter(2) : nil
            if Int.random(in: 0..<4, using: &random) == 0 {  // a Query of one partition, more filters beside
                condition = .and([.equals("locationId", value("locationId"))] + (condition.map { [$0] } ?? []))
            }
            let sort = (0..<Int.random(in: 0...2, using: &random)).map { _ -> SortKey in
                let attribute = attributes.randomElement(using: &random)!
                return Bool.random(using: &random) ? .ascending(attribute) : .descending(attribute)
            }
            let query = try ItemQuery(condition, sort: sort, limit: Bool.random(using: &random) ? Int.random(in: 0...50, using: &random) : nil)
                .checked(for: entity)
            var fromDynamoDB: [[Value]] = [], fromScan: [[Value]] = []
            try store.items(matching: query, of: entity) { fromDynamoDB.append($0) }
            try inMemory.items(matching: query, of: entity) { fromScan.append($0) }
            XCTAssertEqual(fromDynamoDB, fromScan, "\(query)")
        }

        let queriesBefore = try proxy.stats().requests
        var found: [[Value]] = []
        let partition = try ItemQuery(.and([.equals("locationId", .string("l7")), .isNotNull("name")])).checked(for: entity)
        try store.items(matching: partition, of: entity) { found.append($0) }
        XCTAssertEqual(found.map { $0[entity.hashKeyIndex] }, [.string("l7")])
        XCTAssertEqual(try proxy.stats().requests - queriesBefore, 1, "the hash key's value read its partition with one Query")
    }
}

/// The table's items, scanned once: queries over it take `ItemReader`'s in-memory evaluation.
private struct ScanOnly: ItemReader {
    let items: [[Value]]
    init(_ items: [[Value]]) { self.items = items }
    func count(of entity: Entity) throws -> Int { items.count }
    func fetch(_ key: Value, of entity: Entity) throws -> [Value]? { items.first { entity.key(of: $0) == key } }
    func scan(_ entity: Entity, _ body: ([Value]) throws -> Void) throws { try items.forEach(body) }
}
