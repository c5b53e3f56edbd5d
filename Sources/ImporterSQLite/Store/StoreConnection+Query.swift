import ImporterCore

/// Library queries (`ItemQuery`) as one parameterised SELECT: attribute names come from the
/// model (quoted), every value is a bound parameter. Decimals, stored as text, compare and sort
/// as numbers (`CAST … AS NUMERIC`), as the query's in-memory evaluation does; ties by key.
extension StoreConnection {
    func items(matching query: ItemQuery, of entity: Entity, _ body: ([Value]) throws -> Void) throws {
        var arguments: [Value] = []
        let columns = entity.attributes.map { quoted($0.name) }.joined(separator: ", ")
        var sql = "SELECT \(columns) FROM \(quoted(entity.table))"
        if let filter = query.filter { sql += " WHERE " + condition(filter, of: entity, &arguments) }
        let order =
            query.sort.map { "\(expression($0.attribute, of: entity)) \($0.ascending ? "ASC" : "DESC")" }
            + entity.keyAttributes.map(quoted)
        sql += " ORDER BY " + order.joined(separator: ", ")
        if let limit = query.limit {
            sql += " LIMIT ?"
            arguments.append(.integer(Int64(limit)))
        }
        try database.prepare(sql).query(arguments) { try body(row($0, entity)) }
    }

    private func condition(_ filter: ItemFilter, of entity: Entity, _ arguments: inout [Value]) -> String {
        func compare(_ name: String, _ operation: String, _ value: Value) -> String {
            guard !value.isNull else { return "0" }
            arguments.append(value)
            return "\(expression(name, of: entity)) \(operation) \(parameter(name, of: entity))"
        }
        switch filter {
        case .equals(let name, let value): return value.isNull ? "\(quoted(name)) IS NULL" : compare(name, "=", value)
        case .below(let name, let value): return compare(name, "<", value)
        case .atMost(let name, let value): return compare(name, "<=", value)
        case .above(let name, let value): return compare(name, ">", value)
        case .atLeast(let name, let value): return compare(name, ">=", value)
        case .isIn(let name, let values):
            let present = values.filter { !$0.isNull }
            guard !present.isEmpty else { return "0" }
            arguments += present
            return
                "\(expression(name, of: entity)) IN (\(present.map { _ in parameter(name, of: entity) }.joined(separator: ", ")))"
        case .isNull(let name): return "\(quoted(name)) IS NULL"
        case .isNotNull(let name): return "\(quoted(name)) IS NOT NULL"
        case .and(let filters):
            guard !filters.isEmpty else { return "1" }
            return "(" + filters.map { condition($0, of: entity, &arguments) }.joined(separator: " AND ") + ")"
        }
    }

    private func isDecimal(_ name: String, of entity: Entity) -> Bool {
        entity.attribute(named: name)?.type == .decimal
    }

    private func expression(_ name: String, of entity: Entity) -> String {
        isDecimal(name, of: entity) ? "CAST(\(quoted(name)) AS NUMERIC)" : quoted(name)
    }

    private func parameter(_ name: String, of entity: Entity) -> String {
        isDecimal(name, of: entity) ? "CAST(? AS NUMERIC)" : "?"
    }
}
