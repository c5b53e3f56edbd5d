extension ItemQuery {
    /// Checks that every attribute the query names is one of `entity`'s, and that its values
    /// are of the attribute's type; returns the query with numbers widened to that type.
    public func checked(for entity: Entity) throws -> ItemQuery {
        for name in attributes where entity.attribute(named: name) == nil {
            throw ItemError.unknownAttribute(entity: entity.name, attribute: name)
        }
        if let limit, limit < 0 {
            throw ItemError.invalid(
                entity: entity.name, field: nil, reason: .range,
                message: "a query's limit cannot be negative (\(limit))")
        }
        var checked = self
        checked.filter = try filter?.checked(for: entity)
        return checked
    }

    /// Whether `values` (an item of `entity`, by attribute position) satisfy the filter.
    func matches(_ values: [Value], of entity: Entity) -> Bool {
        filter?.matches(values, of: entity) ?? true
    }

    /// Whether the item `a` comes before `b` in the query's order (then by key).
    func precedes(_ a: [Value], _ b: [Value], of entity: Entity) -> Bool {
        for key in sort {
            let index = entity.attributeIndex[key.attribute]!
            if ValueOrder.same(a[index], b[index]) { continue }
            return ValueOrder.precedes(a[index], b[index]) == key.ascending
        }
        return ValueOrder.precedes(entity.key(of: a), entity.key(of: b))
    }
}

extension ItemFilter {
    func checked(for entity: Entity) throws -> ItemFilter {
        func value(_ name: String, _ value: Value) throws -> Value {
            let attribute = entity.attribute(named: name)!
            switch (attribute.type, value) {
            case (_, .null): return value
            case (.double, .integer(let number)), (.float, .integer(let number)): return .double(Double(number))
            case (.decimal, .integer(let number)): return .decimal(String(number))
            case (.string, .string), (.uuid, .string), (.uri, .string), (.int16, .integer), (.int32, .integer),
                (.int64, .integer),
                (.double, .double), (.float, .double), (.decimal, .decimal), (.date, .date), (.boolean, .boolean),
                (.binary, .binary):
                return value
            default:
                throw ItemError.invalid(
                    entity: entity.name, field: name, reason: .type,
                    message: "\(name) is \(attribute.type.rawValue): a query cannot compare it with \(value)")
            }
        }
        switch self {
        case .equals(let name, let v): return .equals(name, try value(name, v))
        case .below(let name, let v): return .below(name, try value(name, v))
        case .atMost(let name, let v): return .atMost(name, try value(name, v))
        case .above(let name, let v): return .above(name, try value(name, v))
        case .atLeast(let name, let v): return .atLeast(name, try value(name, v))
        case .isIn(let name, let values): return .isIn(name, try values.map { try value(name, $0) })
        case .isNull, .isNotNull: return self
        case .and(let filters): return .and(try filters.map { try $0.checked(for: entity) })
        }
    }

    func matches(_ values: [Value], of entity: Entity) -> Bool {
        func at(_ name: String) -> Value { values[entity.attributeIndex[name]!] }
        switch self {
        case .equals(let name, let value):
            return value.isNull ? at(name).isNull : !at(name).isNull && ValueOrder.same(at(name), value)
        case .below(let name, let value):
            return !at(name).isNull && !value.isNull && ValueOrder.precedes(at(name), value)
        case .atMost(let name, let value):
            return !at(name).isNull && !value.isNull && !ValueOrder.precedes(value, at(name))
        case .above(let name, let value):
            return !at(name).isNull && !value.isNull && ValueOrder.precedes(value, at(name))
        case .atLeast(let name, let value):
            return !at(name).isNull && !value.isNull && !ValueOrder.precedes(at(name), value)
        case .isIn(let name, let list):
            return !at(name).isNull && list.contains { !$0.isNull && ValueOrder.same(at(name), $0) }
        case .isNull(let name): return at(name).isNull
        case .isNotNull(let name): return !at(name).isNull
        case .and(let filters): return filters.allSatisfy { $0.matches(values, of: entity) }
        }
    }
}

extension ItemQuerying {
    /// Any store: every item read, then filtered, sorted and cut in memory. Stores that can
    /// select in place (SQLite) answer with their own.
    public func items(matching query: ItemQuery, of entity: Entity, _ body: ([Value]) throws -> Void) throws {
        try query.select(from: { try scan(entity, $0) }, of: entity, body)
    }
}

extension ItemQuery {
    /// The query evaluated in memory over `candidates`, which calls its argument with items of
    /// `entity` (at least every one that matches): `body` gets those that match, in the
    /// query's order, up to its limit. A store that narrows the candidates on its side (a
    /// DynamoDB FilterExpression) leaves the exact answer to this.
    public func select(
        from candidates: (([Value]) throws -> Void) throws -> Void, of entity: Entity,
        _ body: ([Value]) throws -> Void
    ) throws {
        var matching: [[Value]] = []
        try candidates { if matches($0, of: entity) { matching.append($0) } }
        matching.sort { precedes($0, $1, of: entity) }
        for values in matching.prefix(limit ?? Int.max) { try body(values) }
    }
}
