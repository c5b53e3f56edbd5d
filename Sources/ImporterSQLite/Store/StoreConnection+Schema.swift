import ImporterCore

/// Tables, `_importer_meta`, and the entities' statements.
extension StoreConnection {
    func prepare(for model: Model) throws {
        contentIndexes.forgetAll()
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS _importer_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS _importer_runs (
                run_id TEXT PRIMARY KEY, pipeline TEXT NOT NULL, started TEXT NOT NULL, finished TEXT NOT NULL,
                status TEXT NOT NULL, model_version INTEGER NOT NULL, read INTEGER NOT NULL, inserted INTEGER NOT NULL,
                updated INTEGER NOT NULL, unchanged INTEGER NOT NULL, rejected INTEGER NOT NULL,
                rolled_back INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS _importer_checkpoint (
                id INTEGER PRIMARY KEY CHECK (id = 1), pipeline TEXT NOT NULL, state TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS _importer_checkpoint_rejects (rejection TEXT NOT NULL);
            """)
        let meta = try self.meta()
        if let recorded = Self.recordedModel(meta) { try recorded.require(model, at: path) }
        try prepareMigrationHistory()
        try database.inTransaction(.immediate) {
            for entity in model.entities { try database.execute(createTable(entity)) }
            try setMeta(["model": model.name, "version": String(model.version), "checksum": model.checksum])
            return .commit
        }
        try prepareToRead(model)
    }

    /// Prepares the statements of `model`'s tables; nothing is created or written.
    func prepareToRead(_ model: Model) throws {
        for entity in model.entities { statements[entity.name] = try EntityStatements(entity, on: database) }
    }

    /// `_importer_meta` as a dictionary (empty for a new store).
    func meta() throws -> [String: String] {
        guard try hasTable("_importer_meta") else { return [:] }
        var result: [String: String] = [:]
        try database.cached("SELECT key, value FROM _importer_meta").query { row in
            result[row.text(0) ?? ""] = row.text(1) ?? ""
        }
        return result
    }

    /// The model `meta` records, if any.
    static func recordedModel(_ meta: [String: String]) -> ModelIdentity? {
        guard let name = meta["model"] else { return nil }
        return ModelIdentity(name: name, version: Int(meta["version"] ?? "") ?? 0, checksum: meta["checksum"] ?? "?")
    }

    func setMeta(_ values: [String: String]) throws {
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try database.execute(
                "INSERT INTO _importer_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.string(key), .string(value)])
        }
    }

    func hasTable(_ name: String) throws -> Bool {
        try database.storedDefinition(ofTable: name) != nil
    }

    func createTable(_ entity: Entity) -> String { "CREATE TABLE IF NOT EXISTS " + tableBody(entity) }

    /// The definition of `entity`'s table as SQLite keeps it (`sqlite_master.sql`) when this
    /// version creates it.
    func tableDefinition(_ entity: Entity) -> String { "CREATE TABLE " + tableBody(entity) }

    /// The table's name and columns.
    private func tableBody(_ entity: Entity) -> String {
        var columns = Self.columnDefinitions(of: entity)
        // `ON CONFLICT ABORT` is SQLite's default, spelled out: the key's index then matches a
        // `CREATE UNIQUE INDEX` on the same columns, which lets a bulk load copy a staged table
        // and its index into the store as they are (`BulkLoad`).
        if entity.rangeKey == nil, let index = entity.attributes.firstIndex(where: { $0.name == entity.hashKey }) {
            columns[index] += " PRIMARY KEY ON CONFLICT ABORT"
        }
        // (hash, range): a composite primary key (docs/model.md#composite-keys).
        let primaryKey =
            entity.rangeKey == nil
            ? "" : ", PRIMARY KEY (\(entity.keyAttributes.map(quoted).joined(separator: ", "))) ON CONFLICT ABORT"
        // A rowid table with the key's unique index, not WITHOUT ROWID: rows are appended in
        // order and only the (much smaller) index takes random inserts when keys are random.
        return "\(quoted(entity.table)) (\(columns.joined(separator: ", "))\(primaryKey))"
    }

    /// The columns of `entity`'s table: name, type, and `NOT NULL` on the key and the version.
    static func columnDefinitions(of entity: Entity) -> [String] {
        entity.attributes.map { attribute in
            let notNull = entity.keyAttributes.contains(attribute.name) || attribute.name == entity.versionAttribute
            return "\(quoted(attribute.name)) \(ValueColumns.sqlType(attribute.type))" + (notNull ? " NOT NULL" : "")
        }
    }
}
