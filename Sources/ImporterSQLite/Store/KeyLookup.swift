import ImporterCore

/// `contains` on a connection of its own, opened on first use: the reading thread asks it
/// while the writer's batches commit.
final class KeyLookup {
    let path: String
    private var database: Database?
    private var statements: [String: Statement] = [:]

    /// The entities the run loads in bulk: their tables were empty when it began and stay so
    /// until its build, so a key the run's own keys do not name is not stored either
    /// (docs/writes.md#bulk-loads). Set by `SQLiteStore.beginBulkLoad`, cleared by `close`.
    var loadedInBulk: Set<String> = []

    init(path: String) {
        self.path = path
    }

    /// Set by `beginBatch`: the next `contains` begins a read transaction that lasts until
    /// `endBatch`, so that the lookups of a batch take the file's locks once, not each.
    private var batched = false

    func contains(_ key: Value, in entity: Entity) throws -> Bool {
        if loadedInBulk.contains(entity.name) { return false }
        let statement = try self.statement(entity)
        if batched, let database, database.isAutocommit { try database.begin(.deferred) }
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

    func beginBatch() {
        batched = true
    }

    /// Ends the batch's read transaction, if a lookup began one.
    func endBatch() {
        batched = false
        if let database, !database.isAutocommit { try? database.commit() }
    }

    func close() {
        loadedInBulk = []
        statements = [:]
        database = nil
    }
}
