import ImporterCore

/// A bulk load: the entities whose tables were empty when the run began, staged while the run
/// reads (`StagedRows`) and built in key order when it finishes. The table's rows and its
/// primary-key index are then written as appends, where record-by-record writes of random keys
/// cost a B-tree search and a page that is rarely in the cache, more so the larger the table grows.
///
/// The outcomes are those of the incremental path: into an empty table every record is
/// decided against no stored item, and the key stage has rejected duplicate keys already.
final class BulkLoad {
    /// Rows staged in the store, of the entities whose tables it adopts (`adopt`).
    let storeTables: StagedRows
    /// Rows staged beside the store, of the others; nil when there are none.
    let file: StagedRows?
    /// The entities loaded in bulk, by name.
    let entities: [String: Entity]
    /// Why the tables cannot be built by this run: the staging file committed rows the store
    /// then failed to count. A resumed run drops those rows and builds the rest.
    private(set) var unbuildable: String?
    /// The entities whose staged table SQLite copies into the store as it is (`indexForCopy`).
    private(set) var copiedAsIs: Set<String> = []

    init(storeTables: StagedRows, file: StagedRows?, entities: [Entity]) {
        self.storeTables = storeTables
        self.file = file
        self.entities = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
    }

    /// Where the rows of `entity` are staged.
    func rows(of entity: Entity) -> StagedRows {
        if let file, file.rows[entity.name] != nil { return file }
        return storeTables
    }

    /// Both places rows are staged in.
    var stagings: [StagedRows] { [storeTables] + (file.map { [$0] } ?? []) }

    var hasUncommitted: Bool { stagings.contains { $0.hasUncommitted } }

    /// The store failed to commit after the staging file committed its rows (`reason`): the
    /// tables are not built by this run (`unbuildable`).
    func markUnbuildable(_ reason: String) {
        unbuildable = reason
    }

    /// Drops what was staged since the last commit (the store rolls back its own tables).
    func rollBack() {
        for staging in stagings { staging.rollBack() }
    }

    /// Whether the key of `entity` is its table's rowid (a single integer key): its rows are
    /// stored in key order, whatever order they were staged in.
    static func keyIsRowid(_ entity: Entity) -> Bool {
        entity.keyAttributes.count == 1
            && entity.attribute(named: entity.hashKey).map { ValueColumns.sqlType($0.type) == "INTEGER" } == true
    }

    /// The most rows handed to the staged table at once.
    private static let stagedAtOnce = 4096

    /// Stages records of `entity`: one outcome per record, in order.
    func write(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) throws -> [WriteOutcome] {
        var outcomes: [WriteOutcome] = []
        outcomes.reserveCapacity(records.count)
        var staged: [(values: [Value], version: Int64)] = []
        staged.reserveCapacity(min(records.count, Self.stagedAtOnce))
        for index in records.indices {
            // Staged a few thousand at a time: a large document's packed records are unpacked
            // here, and all of them at once would take the memory packing saved.
            if staged.count == Self.stagedAtOnce {
                try rows(of: entity).append(staged, of: entity)
                staged.removeAll(keepingCapacity: true)
            }
            let values = records.values(at: index)
            if let version = rules.newItemVersion(values) {
                staged.append((values, version))
                outcomes.append(WriteOutcome(.inserted))
                continue
            }
            // A record based on a version of an item that is not stored: its merge policy decides.
            let (decision, conflict) = rules.decide(values, stored: nil)
            switch decision {
            case .insert(let row), .update(let row, _):
                guard case .integer(let version) = row[entity.versionIndex] else {
                    preconditionFailure("the rules set no version")
                }
                staged.append((row, version))
                outcomes.append(WriteOutcome(.inserted, conflict: conflict))
            case .unchanged: outcomes.append(WriteOutcome(.unchanged, conflict: conflict))
            case .rolledBack: outcomes.append(WriteOutcome(.rolledBack, conflict: conflict))
            case .reject(let reason, let message):
                outcomes.append(
                    WriteOutcome(.rejected(Rejection(stage: .write, reason: reason, message)), conflict: conflict))
            }
        }
        try rows(of: entity).append(staged, of: entity)
        return outcomes
    }

    /// Builds every entity's table from its staged rows inside the store's open transaction.
    /// Tables staged in the store are adopted (`adopt`). From the staging file, attached to the
    /// store's connection as `schema`, SQLite inserts the rows as staged where they are in key
    /// order already (`StagedRows.inKeyOrder`: each index entry an append, no sort), copies the
    /// table as it is where `indexForCopy` readied it, or else sorts the rows by key and inserts
    /// them in that order. Inside an atomic run's transaction, which cannot attach a file, they
    /// are read in key order from the staging file and inserted one by one.
    func build(into database: Database, attachedAs schema: String?, statements: (Entity) throws -> EntityStatements)
        throws
    {
        for entity in entities.values.sorted(by: { $0.name < $1.name }) {
            do {
                let table = quoted(entity.table), staged = rows(of: entity)
                if staged === storeTables {
                    if try database.integer("SELECT EXISTS (SELECT 1 FROM main.\(table))") == 0 {
                        try adopt(entity, in: database)
                    } else {
                        try insertStaged(entity, in: database)
                    }
                    continue
                }
                if let schema, copiedAsIs.contains(entity.name) {
                    try database.execute("INSERT INTO main.\(table) SELECT * FROM \(schema).\(table)")
                } else if let schema {
                    let columns = entity.attributes.map { quoted($0.name) }.joined(separator: ", ")
                    let key = entity.keyAttributes.map(quoted).joined(separator: ", ")
                    let order = staged.inKeyOrder.contains(entity.name) ? "" : " ORDER BY \(key)"
                    try database.execute(
                        "INSERT INTO main.\(table) (\(columns)) SELECT \(columns) FROM \(schema).\(table)\(order)")
                } else {
                    let insert = try statements(entity).insert
                    let columns = Int32(entity.attributes.count)
                    try staged.scanInKeyOrder(entity) { row in
                        try insert.bind(columnsOf: row, count: columns)
                        defer { insert.reset() }
                        try insert.step()
                    }
                }
            } catch let error as SQLiteError {
                throw StoreError.sqlite(
                    error, at: nil, "cannot build \(entity.name) from the rows the bulk load staged",
                    entity: entity.name, operation: "build")
            }
        }
    }

    /// Inserts the rows staged in the store for `entity` into its table, in key order, and drops
    /// the staged table: for a table another writer (the library, the sqlite3 shell) wrote to
    /// while the run staged, whose rows adopting the staged table would drop. A key both wrote
    /// fails the build (the run stops; its staged rows stay for `--resume`).
    private func insertStaged(_ entity: Entity, in database: Database) throws {
        let staged = quoted(StagedRows.stagedTable(of: entity))
        let columns = entity.attributes.map { quoted($0.name) }.joined(separator: ", ")
        let key = entity.keyAttributes.map(quoted).joined(separator: ", ")
        try database.execute(
            "INSERT INTO main.\(quoted(entity.table)) (\(columns)) SELECT \(columns) FROM \(staged) ORDER BY \(key)")
        try database.execute("DROP TABLE \(staged)")
    }

    /// Makes the table staged in the store for `entity` its table, without copying a row: it
    /// indexes the staged rows by key (SQLite's sort), drops the entity's empty table, and gives
    /// the staged table that table's name and definition, and its index the name SQLite gives a
    /// primary key's index (an index on the same columns, laid out the same on disk). The rows
    /// keep the order of the input, as record-by-record writes leave them, so a later refresh
    /// that reads the same dump touches the table's pages in order.
    ///
    /// The definitions are changed as SQLite documents for schema changes that leave what is on
    /// disk as it is (`PRAGMA writable_schema`, then a new `schema_version`); the store takes
    /// this path only for tables exactly as this version creates them (`canAdopt`), and checks
    /// that SQLite reads the key's index as the primary key's before the transaction commits.
    private func adopt(_ entity: Entity, in database: Database) throws {
        let table = entity.table, staged = StagedRows.stagedTable(of: entity), index = "importer_key_" + entity.table
        let key = entity.keyAttributes.map(quoted).joined(separator: ", ")
        // From the keys kept while staging, in order; else by SQLite's sort of the staged rows.
        let written = try storeTables.takeKeys(of: entity).map { try KeyIndexWriter.write($0, as: index, in: database) }
        if written != true {
            try database.execute("CREATE UNIQUE INDEX \(quoted(index)) ON \(quoted(staged)) (\(key))")
        }
        guard let definition = try database.storedDefinition(ofTable: table) else {
            throw StoreError(
                .conflictingWriter, "cannot build \(entity.name): its table \(table) is gone", entity: entity.name,
                operation: "build")
        }
        try database.execute("DROP TABLE \(quoted(table))")
        try database.execute("PRAGMA writable_schema = ON")
        defer { try? database.execute("PRAGMA writable_schema = OFF") }
        try database.prepare(
            "UPDATE sqlite_master SET name = ?, tbl_name = ?, sql = ? WHERE type = 'table' AND name = ?"
        )
        .execute([.string(table), .string(table), .string(definition), .string(staged)])
        // The index SQLite built, or the key table `KeyIndexWriter` wrote: the same B-tree.
        try database.prepare(
            "UPDATE sqlite_master SET type = 'index', name = ?, tbl_name = ?, sql = NULL WHERE name = ?"
        )
        .execute([.string("sqlite_autoindex_\(table)_1"), .string(table), .string(index)])
        // One more than the current version: SQLite reads the schema again, this connection too.
        try database.execute("PRAGMA schema_version = \(try database.integer("PRAGMA schema_version") + 1)")
        let origins = try database.strings("SELECT origin FROM pragma_index_list(?)", [.string(table)])
        guard origins == ["pk"] else {
            throw StoreError(
                .storage(resultCode: nil),
                "cannot build \(entity.name): SQLite does not read its adopted key index as the primary key's (\(origins))",
                entity: entity.name, operation: "build")
        }
    }

    /// Indexes every table of the staging file by its key as the store's table is indexed, where that lets
    /// SQLite copy the staged rows and index into the store as they are (its transfer
    /// optimization: both B-trees appended, no sort of whole rows). The table's rows then keep
    /// the order of the input, as record-by-record writes leave them, so a later refresh that
    /// reads the same dump touches the table's pages in order. Run outside a transaction.
    ///
    /// Not where SQLite would not copy as it is: a key that is the rowid (an integer), a store
    /// table whose columns differ from the staged ones, or one created before its key said
    /// `ON CONFLICT ABORT`. Those are built by a sort. Nor where the rows are in key order
    /// already: inserting them as they are costs less than building the index to copy.
    func indexForCopy(attachedAs schema: String, in database: Database) throws {
        guard let file else { return }
        for entity in entities.values.sorted(by: { $0.name < $1.name })
        where file.rows[entity.name] != nil && !copiedAsIs.contains(entity.name)
            && !file.inKeyOrder.contains(entity.name)
        {
            guard !Self.keyIsRowid(entity),
                try columns(of: entity.table, in: "main", database) == columns(of: entity.table, in: schema, database)
            else { continue }
            let table = quoted(entity.table), index = "\(schema).\(quoted("importer_key_" + entity.table))"
            try database.execute(
                "CREATE UNIQUE INDEX IF NOT EXISTS \(index) ON \(table) (\(entity.keyAttributes.map(quoted).joined(separator: ", ")))"
            )
            var copies = false
            try database.prepare("EXPLAIN INSERT INTO main.\(table) SELECT * FROM \(schema).\(table)").query {
                copies = copies || $0.text(1) == "RowData"
            }
            if copies { copiedAsIs.insert(entity.name) } else { try database.execute("DROP INDEX \(index)") }
        }
    }

    /// Name, declared type, `NOT NULL` and default of each column of `table` in `schema`, in order.
    private func columns(of table: String, in schema: String, _ database: Database) throws -> [[String: String]] {
        try database.rows(
            "SELECT name, type, \"notnull\", dflt_value FROM pragma_table_info(?, ?)",
            [.string(table), .string(schema)],
            names: ["name", "type", "notnull", "default"])
    }
}
