import ImporterCore

/// `contains` on a connection of its own, opened on first use: the reading thread asks it
/// while the writer's batches commit.
final class KeyLookup {
    let path: String
    private var database: Database?
    private var statements: [String: Statement] = [:]

    init(path: String) {
        self.path = path
    }

    func contains(_ key: Value, in entity: Entity) throws -> Bool {
        let statement = try self.statement(entity)
        let parts = entity.keyParts(key)
        return try statement.withArguments(parts) {
            for (index, part) in parts.enumerated() { try statement.bind(part, at: Int32(index + 1)) }
            defer { statement.reset() }
            return try statement.step()
        }
    }

    private func statement(_ entity: Entity) throws -> Statement {
        if let statement = statements[entity.name] { return statement }
        let database = try self.database ?? Database(path: path)
        self.database = database
        let statement = try database.prepare(
            "SELECT 1 FROM \(quoted(entity.table)) WHERE \(EntityStatements.keyCondition(entity))")
        statements[entity.name] = statement
        return statement
    }

    func close() {
        statements = [:]
        database = nil
    }
}
