import ImporterCore

/// Library queries on a store: random filters, orders and limits over random items, each
/// answered by the store (`items(matching:of:_:)`: one SELECT on SQLite, a Query or a filtered
/// Scan on DynamoDB) exactly as the query's in-memory evaluation answers it over the same items.
package enum QueryScenario {
    /// Writes 120 random items of `entity` (the sample model's Location: `locationId`, `name`,
    /// `rating`, `visits`, `latitude`, `createdAt`, `active`) to `store` (prepared, the entity's
    /// table empty), then runs `queries` random queries; returns the queries answered otherwise,
    /// empty when the store conforms.
    package static func run(on store: Store, entity: Entity, queries: Int = 200) throws -> [String] {
        var random = SystemRandomNumberGenerator()
        let items = (0..<120).map { index in
            entity.attributes.map { attribute in
                attribute.name == "locationId"
                    ? .string("l\(index)") : randomValue(attribute.name, &random, forItem: true)
            }
        }
        let records = items.enumerated().map {
            PreparedRecord(inputIndex: 0, line: $0 + 2, byteOffset: 0, raw: [], values: $1)
        }
        _ = try store.write(records, of: entity, rules: VersionRules(entity: entity, write: WriteConfig()))
        try store.commit()
        var stored: [[Value]] = []
        try store.scan(entity) { stored.append($0) }
        guard stored.count == items.count else { return ["\(stored.count) of \(items.count) items stored"] }
        let inMemory = StoredItems(items: stored)

        var problems: [String] = []
        for _ in 0..<queries {
            let query = try randomQuery(&random).checked(for: entity)
            var fromStore: [[Value]] = [], expected: [[Value]] = []
            try store.items(matching: query, of: entity) { fromStore.append($0) }
            try inMemory.items(matching: query, of: entity) { expected.append($0) }
            if fromStore != expected {
                problems.append("\(query): \(fromStore.count) items, expected \(expected.count)")
            }
        }
        return problems
    }

    private static let attributes = ["locationId", "name", "rating", "visits", "latitude", "createdAt", "active"]
    /// `size` is a DynamoDB reserved word; `D` sorts before `b` by bytes.
    private static let names = ["alpha", "Alpha", "beta", "é", "e", "size", "Delta", ""]
    private static let ratings = ["0", "4.50", "4.5", "10", "9.99", "-1", "100.000"]

    /// A value of the attribute; for an item, of the attribute's own type and sometimes null
    /// (a query's value may be a number of another type, which `checked(for:)` widens).
    private static func randomValue(
        _ attribute: String, _ random: inout SystemRandomNumberGenerator, forItem: Bool = false
    ) -> Value {
        if forItem, Int.random(in: 0..<5, using: &random) == 0, attribute != "name", attribute != "createdAt" {
            return .null
        }
        switch attribute {
        case "locationId": return .string("l\(Int.random(in: 0..<130, using: &random))")
        case "name": return .string(names.randomElement(using: &random)!)
        case "rating":
            return forItem || Bool.random(using: &random)
                ? .decimal(ratings.randomElement(using: &random)!)
                : .integer(Int64.random(in: 0...10, using: &random))
        case "visits": return .integer(Int64.random(in: -3...3, using: &random))
        case "latitude": return .double(Double(Int.random(in: -2...2, using: &random)) / 2)
        case "active": return .boolean(Bool.random(using: &random))
        case "createdAt": return .date(Int64.random(in: 0...5, using: &random) * 1_000)
        default: return .null
        }
    }

    private static func randomQuery(_ random: inout SystemRandomNumberGenerator) -> ItemQuery {
        func filter(_ depth: Int) -> ItemFilter {
            let attribute = attributes.randomElement(using: &random)!
            switch Int.random(in: 0...(depth > 0 ? 8 : 7), using: &random) {
            case 0: return .equals(attribute, randomValue(attribute, &random))
            case 1: return .below(attribute, randomValue(attribute, &random))
            case 2: return .atMost(attribute, randomValue(attribute, &random))
            case 3: return .above(attribute, randomValue(attribute, &random))
            case 4: return .atLeast(attribute, randomValue(attribute, &random))
            case 5:
                return .isIn(
                    attribute, (0..<Int.random(in: 0...3, using: &random)).map { _ in randomValue(attribute, &random) })
            case 6: return .isNull(attribute)
            case 7: return .isNotNull(attribute)
            default: return .and((0..<Int.random(in: 0...3, using: &random)).map { _ in filter(depth - 1) })
            }
        }
        var condition = Bool.random(using: &random) ? filter(2) : nil
        if Int.random(in: 0..<4, using: &random) == 0 {  // one key's items, other conditions beside
            condition = .and(
                [.equals("locationId", randomValue("locationId", &random))] + (condition.map { [$0] } ?? []))
        }
        let sort = (0..<Int.random(in: 0...2, using: &random)).map { _ -> SortKey in
            let attribute = attributes.randomElement(using: &random)!
            return Bool.random(using: &random) ? .ascending(attribute) : .descending(attribute)
        }
        return ItemQuery(
            condition, sort: sort, limit: Bool.random(using: &random) ? Int.random(in: 0...50, using: &random) : nil)
    }

    /// Items read once: queries over them take `ItemQuerying`'s in-memory evaluation.
    private struct StoredItems: ItemQuerying {
        let items: [[Value]]
        func count(of entity: Entity) throws -> Int { items.count }
        func fetch(_ key: Value, of entity: Entity) throws -> [Value]? { items.first { entity.key(of: $0) == key } }
        func scan(_ entity: Entity, _ body: ([Value]) throws -> Void) throws { try items.forEach(body) }
    }
}
