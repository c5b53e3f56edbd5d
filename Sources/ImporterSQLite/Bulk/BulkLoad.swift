import ImporterCore

/// A bulk load: the entities whose tables were empty when the run began, staged in a
/// `StagingFile` while the run reads, and built in key order when it finishes. The table's
/// rows and its primary-key index are then written as appends, where record-by-record writes
/// of random keys cost a B-tree search and a page that is rarely in the cache, more so the
/// larger the table grows.
///
/// The outcomes are those of the incremental path: into an empty table every record is
/// decided against no stored item, and the key stage has rejected duplicate keys already.
final class BulkLoad {
    let file: StagingFile
    /// The entities loaded in bulk, by name.
    let entities: [String: Entity]
    /// Why the tables cannot be built by this run: the staging file committed rows the store
    /// then failed to count. A resumed run drops those rows and builds the rest.
    var unbuildable: String?

    init(file: StagingFile, entities: [Entity]) {
        self.file = file
        self.entities = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
    }

    /// Stages records of `entity`: one outcome per record, in order.
    func write(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) throws -> [WriteOutcome] {
        var outcomes: [WriteOutcome] = []
        outcomes.reserveCapacity(records.count)
        var staged: [(values: [Value], version: Int64)] = []
        staged.reserveCapacity(records.count)
        for record in records {
            let values = record.values
            if let version = rules.newItemVersion(values) {
                staged.append((values, version))
                outcomes.append(WriteOutcome(.inserted))
                continue
            }
            // A record based on a version of an item that is not stored: its merge policy decides.
            let (decision, conflict) = rules.decide(values, stored: nil)
            switch decision {
            case .insert(let row), .update(let row, _):
                guard case .integer(let version) = row[entity.versionIndex] else { preconditionFailure("the rules set no version") }
                staged.append((row, version))
                outcomes.append(WriteOutcome(.inserted, conflict: conflict))
            case .unchanged: outcomes.append(WriteOutcome(.unchanged, conflict: conflict))
            case .rolledBack: outcomes.append(WriteOutcome(.rolledBack, conflict: conflict))
            case .reject(let reason, let message):
                outcomes.append(WriteOutcome(.rejected(Rejection(stage: .write, reason: reason, message)), conflict: conflict))
            }
        }
        try file.append(staged, of: entity)
        return outcomes
    }

    /// Builds every entity's table from its staged rows, in key order, inside the store's open
    /// transaction. With the staging file attached to the store's connection as `schema`,
    /// SQLite sorts and copies the rows itself; inside an atomic run's transaction, which cannot
    /// attach a file, they are read in key order from the staging file and inserted one by one.
    func build(into database: Database, attachedAs schema: String?, statements: (Entity) throws -> EntityStatements) throws {
        for entity in entities.values.sorted(by: { $0.name < $1.name }) {
            do {
                if let schema {
                    let table = quoted(entity.table)
                    let columns = entity.attributes.map { quoted($0.name) }.joined(separator: ", ")
                    let key = entity.keyAttributes.map(quoted).joined(separator: ", ")
                    try database.execute("INSERT INTO main.\(table) (\(columns)) SELECT \(columns) FROM \(schema).\(table) ORDER BY \(key)")
                } else {
                    let insert = try statements(entity).insert
                    let columns = Int32(entity.attributes.count)
                    try file.scanInKeyOrder(entity) { row in
                        try insert.bind(columnsOf: row, count: columns)
                        defer { insert.reset() }
                        try insert.step()
                    }
                }
            } catch let error as SQLiteError {
                throw StoreError("cannot build \(entity.name) from the rows the bulk load staged: \(error)")
            }
        }
    }
}
