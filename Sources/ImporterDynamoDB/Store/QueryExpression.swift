import ImporterCore

/// An `ItemQuery`'s filter as DynamoDB expressions that narrow what comes back: a
/// KeyConditionExpression when the filter gives the hash key's value (a Query then reads one
/// partition, and the range key's condition too, if it has one), and a FilterExpression of the
/// other conditions.
///
/// It only narrows. Conditions that DynamoDB would judge otherwise than the query are left out
/// (ranges of ISO-8601 dates, which are text; values of uuid, uri and binary attributes;
/// comparisons with null), and every item that comes back is still judged by the query in
/// memory (`ItemQuery.select`), which gives the answer. Since a filter is a conjunction, leaving
/// a condition out can only let more items through.
struct QueryExpression {
    /// nil: a Scan.
    private(set) var keyCondition: String?
    private(set) var filter: String?
    private(set) var names: [String: String] = [:]
    private(set) var values: DynamoItem = [:]
    private let entity: Entity
    private let coding: DynamoItemCoding

    init(_ query: ItemQuery, entity: Entity, coding: DynamoItemCoding) {
        self.entity = entity
        self.coding = coding
        var conditions = Self.conjuncts(query.filter)
        if let hash = conditions.firstIndex(where: { isKeyEquality($0, entity.hashKey) }) {
            var parts = [expression(conditions.remove(at: hash))!]
            if let rangeKey = entity.rangeKey,
                let range = conditions.firstIndex(where: { isKeyComparison($0, rangeKey) })
            {
                parts.append(expression(conditions.remove(at: range))!)
            }
            keyCondition = parts.joined(separator: " AND ")
            // A Query's filter may not name a key attribute.
            conditions.removeAll { !Set($0.attributes).isDisjoint(with: entity.keyAttributes) }
        }
        let filters = conditions.compactMap { expression($0) }
        filter = filters.isEmpty ? nil : filters.joined(separator: " AND ")
    }

    /// The conditions that must all hold.
    private static func conjuncts(_ filter: ItemFilter?) -> [ItemFilter] {
        switch filter {
        case nil: return []
        case .and(let filters): return filters.flatMap { conjuncts($0) }
        case let filter?: return [filter]
        }
    }

    private func isKeyEquality(_ condition: ItemFilter, _ key: String) -> Bool {
        if case .equals(key, _) = condition { return isKeyComparison(condition, key) }
        return false
    }

    private func isKeyComparison(_ condition: ItemFilter, _ key: String) -> Bool {
        switch condition {
        case .equals(key, let value): return !value.isNull && comparable(key, ordering: false)
        case .below(key, let value), .atMost(key, let value), .above(key, let value), .atLeast(key, let value):
            return !value.isNull && comparable(key, ordering: true)
        default: return false
        }
    }

    /// Whether DynamoDB compares the attribute's stored values as the query does: numbers as
    /// numbers, text by its bytes; ISO-8601 dates and booleans only for equality.
    private func comparable(_ name: String, ordering: Bool) -> Bool {
        guard let type = entity.attribute(named: name)?.type else { return false }
        switch type {
        case .string, .int16, .int32, .int64, .decimal, .double, .float: return true
        case .date: return !ordering || coding.dates == .epochSeconds
        case .boolean: return !ordering
        default: return false
        }
    }

    /// The condition as DynamoDB's expression syntax, or nil when it is left to the query.
    private mutating func expression(_ condition: ItemFilter) -> String? {
        func compare(_ name: String, _ operation: String, _ value: Value) -> String? {
            guard !value.isNull, comparable(name, ordering: operation != "="), let operand = placeholder(value) else {
                return nil
            }
            return "\(placeholder(name)) \(operation) \(operand)"
        }
        switch condition {
        case .equals(let name, .null), .isNull(let name):
            // Nulls are left out of items; another writer may have stored {"NULL": true}.
            values[":null"] = .s("NULL")
            return "(attribute_not_exists(\(placeholder(name))) OR attribute_type(\(placeholder(name)), :null))"
        case .isNotNull(let name): return "attribute_exists(\(placeholder(name)))"
        case .equals(let name, let value): return compare(name, "=", value)
        case .below(let name, let value): return compare(name, "<", value)
        case .atMost(let name, let value): return compare(name, "<=", value)
        case .above(let name, let value): return compare(name, ">", value)
        case .atLeast(let name, let value): return compare(name, ">=", value)
        case .isIn(let name, let candidates):
            let present = candidates.filter { !$0.isNull }
            // DynamoDB's IN takes at most 100 values.
            guard !present.isEmpty, present.count <= 100, comparable(name, ordering: false) else { return nil }
            let operands = present.compactMap { placeholder($0) }
            guard operands.count == present.count else { return nil }
            return "\(placeholder(name)) IN (\(operands.joined(separator: ", ")))"
        case .and: return nil  // `conjuncts` has flattened every conjunction
        }
    }

    /// `#a0`, … for an attribute name (names may be DynamoDB reserved words).
    private mutating func placeholder(_ name: String) -> String {
        if let known = names.first(where: { $0.value == name })?.key { return known }
        let placeholder = "#a\(names.count)"
        names[placeholder] = name
        return placeholder
    }

    /// `:v0`, … for a value, encoded as the store encodes it.
    private mutating func placeholder(_ value: Value) -> String? {
        guard let encoded = coding.attributeValue(value) else { return nil }
        let placeholder = ":v\(values.count)"
        values[placeholder] = encoded
        return placeholder
    }
}
