import CSQLite
import Foundation
import ImporterCore

/// The local store: one SQLite file, a table per entity (hash key as PRIMARY KEY, a version
/// column), `_importer_meta` with the model's name, version and checksum, `_importer_runs`
/// with the history of runs. WAL journal, prepared statements, one transaction per batch.
public final class SQLiteStore: Store, RunHistory, @unchecked Sendable {
    public let path: String
    /// The writing connection; used by the writer thread only.
    let database: Database
    /// A second connection for `contains`, called from the reading thread while batches commit.
    private var lookupDatabase: Database?
    private var statements: [String: EntityStatements] = [:]
    private var lookups: [String: Statement] = [:]
    private var atomicRun = false
    /// Entities whose stored content is fingerprinted, so re-written items are found unchanged
    /// without a statement; valid while `PRAGMA data_version` stays `indexedDataVersion`.
    private var contentIndexes: [String: StoredContentIndex] = [:]
    private var indexedDataVersion: Int64 = 0
    /// Entities left without a content index for this store's lifetime (too large, or their
    /// read failed).
    private var unindexed: Set<String> = []
    private var dataVersionStatement: Statement?
    /// `database.totalChanges` when this store last began a transaction.
    private var changesAtBegin: Int64 = -1
    private var images = ColumnImages()

    /// The prepared statements of one entity's table.
    private struct EntityStatements {
        let select: Statement
        let insert: Statement
        let insertIfNew: Statement
        /// Insert, or replace at version + 1 only if some attribute differs (blind upserts).
        let upsertIfChanged: Statement
        let update: Statement
        let delete: Statement
        let scan: Statement
    }

    /// Opens or creates the store file (and its directory).
    public init(path: String) throws {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        database = try Database(path: path)
        // 8 KiB pages (for a new file): fewer, fuller B-tree pages; about 9% faster bulk loads than 4 KiB.
        try database.execute("PRAGMA page_size = 8192; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536;")
    }

    /// Opens an existing store without creating anything (`inspect`).
    public init(existingPath path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ConfigurationError(file: path, "the store does not exist yet; run the pipeline first")
        }
        self.path = path
        database = try Database(path: path, readOnly: true)
    }

    public func close() {
        statements = [:]
        lookups = [:]
        contentIndexes = [:]
        dataVersionStatement = nil
        lookupDatabase = nil
    }

    // MARK: Schema

    public func prepare(for model: Model) throws {
        contentIndexes = [:]
        try database.execute("""
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
        if let name = meta["model"] {
            let version = Int(meta["version"] ?? "") ?? 0
            guard name == model.name else {
                throw ConfigurationError(file: path, "the store holds model '\(name)', not '\(model.name)'; use another destination path")
            }
            guard version == model.version else {
                throw ConfigurationError(file: path,
                    "the store holds \(name) version \(version) but the pipeline uses version \(model.version); migrate it first: importer migrate PIPELINE --to \(model.version)")
            }
            try checkChecksum(of: model, recorded: meta["checksum"] ?? "?", accept: false)
        }
        try prepareMigrationHistory()
        try database.execute("BEGIN IMMEDIATE")
        do {
            for entity in model.entities { try database.execute(createTable(entity)) }
            try setMeta(["model": model.name, "version": String(model.version), "checksum": model.checksum])
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
        for entity in model.entities { statements[entity.name] = try makeStatements(entity) }
    }

    /// Makes a store opened with `init(existingPath:)` ready to read `model`'s tables (a dry
    /// run's sync preview); nothing is created or written.
    public func prepareToRead(_ model: Model) throws {
        for entity in model.entities { statements[entity.name] = try makeStatements(entity) }
    }

    /// `_importer_meta` as a dictionary (empty for a new store).
    public func meta() throws -> [String: String] {
        let exists = try database.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_importer_meta'")
        guard !exists.isEmpty else { return [:] }
        let statement = try database.prepare("SELECT key, value FROM _importer_meta")
        var result: [String: String] = [:]
        while try statement.step() { result[statement.text(0) ?? ""] = statement.text(1) ?? "" }
        return result
    }

    func setMeta(_ values: [String: String]) throws {
        let statement = try database.prepare("INSERT INTO _importer_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            statement.bind(1, text: key)
            statement.bind(2, text: value)
            try statement.step()
            statement.reset()
        }
    }

    func createTable(_ entity: Entity) -> String {
        let columns = entity.attributes.map { attribute -> String in
            var column = "\(quoted(attribute.name)) \(ValueColumns.sqlType(attribute.type))"
            if attribute.name == entity.hashKey { column += " NOT NULL PRIMARY KEY" }
            if attribute.name == entity.versionAttribute { column += " NOT NULL" }
            return column
        }
        // A rowid table with the key's unique index, not WITHOUT ROWID: rows are appended in
        // order and only the (much smaller) index takes random inserts when keys are random.
        return "CREATE TABLE IF NOT EXISTS \(quoted(entity.table)) (\(columns.joined(separator: ", ")))"
    }

    private func makeStatements(_ entity: Entity) throws -> EntityStatements {
        let table = quoted(entity.table)
        let columns = entity.attributes.map { quoted($0.name) }
        let key = quoted(entity.hashKey)
        let insert = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        return EntityStatements(
            select: try database.prepare("SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE \(key) = ?"),
            insert: try database.prepare(insert),
            insertIfNew: try database.prepare(insert + " ON CONFLICT DO NOTHING"),
            upsertIfChanged: try database.prepare(insert + upsertClause(entity)),
            update: try database.prepare("UPDATE \(table) SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE \(key) = ? AND \(quoted(entity.versionAttribute)) = ?"),
            delete: try database.prepare("DELETE FROM \(table) WHERE \(key) = ? AND \(quoted(entity.versionAttribute)) = ?"),
            scan: try database.prepare("SELECT \(columns.joined(separator: ", ")) FROM \(table)"))
    }

    /// `ON CONFLICT … DO UPDATE … WHERE` that replaces a stored item at version + 1 only when
    /// an attribute differs (`IS NOT` compares types and NULLs as the version rules do).
    private func upsertClause(_ entity: Entity) -> String {
        let content = entity.attributes.map(\.name).filter { $0 != entity.hashKey && $0 != entity.versionAttribute }.map(quoted)
        guard !content.isEmpty else { return " ON CONFLICT DO NOTHING" }
        let version = quoted(entity.versionAttribute)
        return " ON CONFLICT (\(quoted(entity.hashKey))) DO UPDATE SET "
            + content.map { "\($0) = excluded.\($0)" }.joined(separator: ", ") + ", \(version) = \(version) + 1"
            + " WHERE " + content.map { "\($0) IS NOT excluded.\($0)" }.joined(separator: " OR ")
    }

    // MARK: Reading

    public func contains(_ key: Value, in entity: Entity) throws -> Bool {
        if lookupDatabase == nil {
            let connection = try Database(path: path)
            lookupDatabase = connection
        }
        let statement: Statement
        if let cached = lookups[entity.name] {
            statement = cached
        } else {
            statement = try lookupDatabase!.prepare("SELECT 1 FROM \(quoted(entity.table)) WHERE \(quoted(entity.hashKey)) = ?")
            lookups[entity.name] = statement
        }
        ValueColumns.bind(key, to: statement, at: 1)
        defer { statement.reset() }
        return try statement.step()
    }

    public func count(of entity: Entity) throws -> Int {
        let statement = try database.prepare("SELECT count(*) FROM \(quoted(entity.table))")
        _ = try statement.step()
        return Int(statement.int64(0))
    }

    public func fetch(_ key: Value, of entity: Entity) throws -> [Value]? {
        let select = try prepared(entity).select
        ValueColumns.bind(key, to: select, at: 1)
        defer { select.reset() }
        return try select.step() ? row(select, entity) : nil
    }

    public func scan(_ entity: Entity, _ body: ([Value]) throws -> Void) throws {
        let scan = try prepared(entity).scan
        defer { scan.reset() }
        while try scan.step() { try body(row(scan, entity)) }
    }

    public func scanRows(_ entity: Entity, _ body: (any StoredRow) throws -> Void) throws {
        let scan = try prepared(entity).scan
        defer { scan.reset() }
        let row = StatementRow(statement: scan)
        while try scan.step() { try body(row) }
    }

    private func row(_ statement: Statement, _ entity: Entity) -> [Value] {
        entity.attributes.enumerated().map { index, attribute in
            ValueColumns.read(statement, column: Int32(index), as: attribute.type)
        }
    }

    private func prepared(_ entity: Entity) throws -> EntityStatements {
        guard let statements = statements[entity.name] else { throw StoreError("entity \(entity.name) was not prepared") }
        return statements
    }

    // MARK: Writing

    public func delete(_ key: Value, expectedVersion: Int64, of entity: Entity) throws -> Bool {
        let delete = try prepared(entity).delete
        do {
            try beginWriting()
            if let index = contentIndexes[entity.name] { index.update(key: images.key(key), content: 0) }
            ValueColumns.bind(key, to: delete, at: 1)
            delete.bind(2, int64: expectedVersion)
            defer { delete.reset() }
            try delete.step()
            return database.changes == 1
        } catch {
            rollBack()
            throw error as? StoreError ?? StoreError("\(path): cannot delete \(entity.name) '\(key)': \(error)")
        }
    }

    public func readingSnapshot<T>(_ body: () throws -> T) throws -> T {
        guard database.isAutocommit else { return try body() }  // inside a transaction already
        try database.execute("BEGIN")
        defer { try? database.execute("COMMIT") }  // a read transaction: nothing to lose
        return try body()
    }

    public func beginRun(atomic: Bool) throws {
        atomicRun = atomic
    }

    public func finishRun(commit: Bool) throws {
        guard !database.isAutocommit else { return }
        if !commit { contentIndexes = [:] }
        try database.execute(commit ? "COMMIT" : "ROLLBACK")
    }

    public func commit() throws {
        guard !atomicRun, !database.isAutocommit else { return }
        do {
            try database.execute("COMMIT")
        } catch {
            rollBack()
            throw StoreError("\(path): cannot commit: \(error)")
        }
    }

    public func write(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) throws -> [WriteOutcome] {
        let statements = try prepared(entity)
        do {
            try beginWriting()
            let index = contentIndexes[entity.name]
            var outcomes = [WriteOutcome](repeating: WriteOutcome(.unchanged), count: records.count)
            var storedBlindUpserts = 0
            // Re-written items the content index finds unchanged need no statement; the rest are
            // written in key order, so that neighbouring keys share B-tree pages.
            var pending: [(order: UInt64, position: Int, blind: Bool, image: (key: UInt64, content: UInt64)?)] = []
            pending.reserveCapacity(records.count)
            for position in records.indices {
                let values = records[position].values
                let blind = rules.isBlindUpsert(values)
                var image: (key: UInt64, content: UInt64)?
                if let index, blind {
                    let record = images.of(values, entity: entity)
                    if index.content(of: record.key) == record.content {
                        storedBlindUpserts += 1
                        continue
                    }
                    image = record
                }
                pending.append((values[entity.hashKeyIndex].localityKey, position, blind, image))
            }
            pending.sort { ($0.order, $0.position) < ($1.order, $1.position) }  // records of one key stay in order
            for (_, position, blind, image) in pending {
                let values = records[position].values
                do {
                    let outcome = try apply(values, blind: blind, statements, entity, rules)
                    outcomes[position] = outcome
                    if blind, !outcome.isInsert { storedBlindUpserts += 1 }
                    if let index, outcome.wrote {
                        // A blind upsert leaves exactly its own content; other writes, what the rules made of it.
                        index.update(key: image?.key ?? images.key(values[entity.hashKeyIndex]), content: image?.content ?? 0)
                    }
                } catch let error as SQLiteError where !error.isFatal {
                    // SQLite backs out the refused statement only; the transaction goes on. If it
                    // rolled the whole transaction back (a RAISE(ROLLBACK) trigger, ON CONFLICT
                    // ROLLBACK), earlier writes of the batch are gone: that is a store failure.
                    guard !database.isAutocommit else {
                        throw StoreError("\(path): SQLite rolled back the whole transaction after refusing a record: \(error)")
                    }
                    outcomes[position] = WriteOutcome(.rejected(Rejection(stage: .write, reason: .constraint,
                        "the store refused the record: \(error.message)")))
                }
            }
            if index == nil, storedBlindUpserts >= 1024, storedBlindUpserts * 2 >= records.count {
                try indexContent(of: entity)
            }
            return outcomes
        } catch {
            // Whatever failed, no write of this batch may be committed later by another COMMIT.
            rollBack()
            throw error as? StoreError ?? StoreError("\(path): \(error)")
        }
    }

    /// Begins the write transaction if none is open, and drops the content indexes if another
    /// connection has committed since they were read (it holds no lock between our transactions).
    private func beginWriting() throws {
        try beginTransactionIfNeeded()
        if !contentIndexes.isEmpty, try dataVersion() != indexedDataVersion { contentIndexes = [:] }
    }

    /// Takes the write lock for a batch, noting the connection's change count: while it stays
    /// the same, the transaction has written nothing.
    private func beginTransactionIfNeeded() throws {
        guard database.isAutocommit else { return }
        try database.execute("BEGIN IMMEDIATE")
        changesAtBegin = database.totalChanges
    }

    /// Rolls back what is open; the content indexes may hold its writes, so they go too.
    private func rollBack() {
        contentIndexes = [:]
        if !database.isAutocommit { try? database.execute("ROLLBACK") }
    }

    /// Fingerprints the stored content of `entity`: called once most of a write's blind upserts
    /// found their key stored (a re-run or a refresh), so the rest are decided without statements.
    private func indexContent(of entity: Entity) throws {
        guard !unindexed.contains(entity.name) else { return }
        let version = try dataVersion()
        guard let index = try StoredContentIndex.read(entity, from: database, path: path,
                                                      committedIsCurrent: database.totalChanges == changesAtBegin,
                                                      images: &images) else {
            unindexed.insert(entity.name)
            return
        }
        indexedDataVersion = version  // the other indexes have it too: `beginWriting` checked them
        contentIndexes[entity.name] = index
    }

    /// For writes that bypass `write` and `delete` (migrations).
    func forgetContentIndexes() {
        contentIndexes = [:]
    }

    /// The content index that currently decides re-written items of `entity`, if any: how many
    /// items it read, with how many threads.
    func contentIndexSize(_ entity: Entity) -> (items: Int, readers: Int)? {
        contentIndexes[entity.name].map { ($0.count, $0.readers) }
    }

    /// Changes when another connection commits (SQLite's `PRAGMA data_version`).
    private func dataVersion() throws -> Int64 {
        if dataVersionStatement == nil { dataVersionStatement = try database.prepare("PRAGMA data_version") }
        let statement = dataVersionStatement!
        defer { statement.reset() }
        _ = try statement.step()
        return statement.int64(0)
    }

    /// A rowid no insert gets in practice: set before a blind upsert, it tells an insert from an update.
    private static let noInsert = Int64.min

    /// Lets the version rules decide against the stored item, and performs the write.
    ///
    /// A blind upsert is one conditional statement. Otherwise a record the rules would insert is
    /// first tried with `INSERT … ON CONFLICT DO NOTHING` (one B-tree search for a new key), and
    /// only when the key exists is the stored item read and decided on. `blind`: what
    /// `rules.isBlindUpsert(values)` says.
    private func apply(_ values: [Value], blind: Bool, _ statements: EntityStatements, _ entity: Entity,
                       _ rules: VersionRules) throws -> WriteOutcome {
        if blind {
            // One statement, one B-tree search: re-runs and refreshes never read the item.
            let upsert = statements.upsertIfChanged
            for index in values.indices where index != entity.versionIndex {
                ValueColumns.bind(values[index], to: upsert, at: Int32(index + 1))
            }
            upsert.bind(Int32(entity.versionIndex + 1), int64: 1)
            defer { upsert.reset() }
            database.lastInsertRowid = Self.noInsert
            try upsert.step()
            if database.changes == 0 { return WriteOutcome(.unchanged) }
            return WriteOutcome(database.lastInsertRowid != Self.noInsert ? .inserted : .updated)
        }
        if let version = rules.newItemVersion(values) {
            let insert = statements.insertIfNew
            for (index, value) in values.enumerated() where index != entity.versionIndex {
                ValueColumns.bind(value, to: insert, at: Int32(index + 1))
            }
            insert.bind(Int32(entity.versionIndex + 1), int64: version)
            defer { insert.reset() }
            try insert.step()
            if database.changes == 1 { return WriteOutcome(.inserted) }
        }
        let select = statements.select
        ValueColumns.bind(values[entity.hashKeyIndex], to: select, at: 1)
        let stored = try select.step() ? row(select, entity) : nil
        select.reset()
        let (decision, conflict) = rules.decide(values, stored: stored)
        switch decision {
        case .unchanged:
            return WriteOutcome(.unchanged, conflict: conflict)
        case .rolledBack:
            return WriteOutcome(.rolledBack, conflict: conflict)
        case .reject(let reason, let message):
            return WriteOutcome(.rejected(Rejection(stage: .write, reason: reason, message)), conflict: conflict)
        case .insert(let row):
            try run(statements.insert, row, extra: [])
            return WriteOutcome(.inserted, conflict: conflict)
        case .update(let row, let expectedVersion):
            try run(statements.update, row, extra: [row[entity.hashKeyIndex], .integer(expectedVersion)])
            guard database.changes == 1 else {
                throw StoreError("\(path): \(entity.name) '\(row[entity.hashKeyIndex])' changed during the write")
            }
            return WriteOutcome(.updated, conflict: conflict)
        }
    }

    private func run(_ statement: Statement, _ row: [Value], extra: [Value]) throws {
        for (index, value) in row.enumerated() { ValueColumns.bind(value, to: statement, at: Int32(index + 1)) }
        for (index, value) in extra.enumerated() { ValueColumns.bind(value, to: statement, at: Int32(row.count + index + 1)) }
        defer { statement.reset() }
        try statement.step()
    }

    // MARK: Checkpoint

    public func saveCheckpoint(_ checkpoint: Checkpoint, adding rejections: [Checkpoint.WriteRejection]) throws {
        let encoder = JSONEncoder()
        do {
            try beginTransactionIfNeeded()
            let statement = try database.prepare("INSERT OR REPLACE INTO _importer_checkpoint (id, pipeline, state) VALUES (1, ?, ?)")
            statement.bind(1, text: checkpoint.pipeline)
            statement.bind(2, text: String(decoding: try encoder.encode(checkpoint), as: UTF8.self))
            try statement.step()
            let insert = try database.prepare("INSERT INTO _importer_checkpoint_rejects (rejection) VALUES (?)")
            for rejection in rejections {
                insert.bind(1, text: String(decoding: try encoder.encode(rejection), as: UTF8.self))
                try insert.step()
                insert.reset()
            }
        } catch {
            if !database.isAutocommit { try? database.execute("ROLLBACK") }
            throw StoreError("\(path): cannot save the checkpoint: \(error)")
        }
    }

    public func loadCheckpoint() throws -> Checkpoint? {
        guard let state = try database.strings("SELECT state FROM _importer_checkpoint WHERE id = 1").first else { return nil }
        let decoder = JSONDecoder()
        var checkpoint = try decoder.decode(Checkpoint.self, from: Data(state.utf8))
        let rejections = (try? database.strings("SELECT rejection FROM _importer_checkpoint_rejects ORDER BY rowid")) ?? []
        checkpoint.rejections = try rejections.map { try decoder.decode(Checkpoint.WriteRejection.self, from: Data($0.utf8)) }
        return checkpoint
    }

    public func clearCheckpoint() throws {
        try database.execute("DELETE FROM _importer_checkpoint; DELETE FROM _importer_checkpoint_rejects;")
    }

    // MARK: Run history

    /// Appends a finished run to `_importer_runs`.
    public func recordRun(_ report: RunReport) throws {
        let statement = try database.prepare("""
            INSERT INTO _importer_runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let t = report.totals
        let texts = [report.runId, report.pipeline, ISO8601.format(report.startedAt),
                     ISO8601.format(report.finishedAt), report.status.rawValue]
        for (index, text) in texts.enumerated() { statement.bind(Int32(index + 1), text: text) }
        for (index, number) in [report.model.version, t.read, t.inserted, t.updated, t.unchanged, t.rejected, t.rolledBack].enumerated() {
            statement.bind(Int32(index + 6), int64: Int64(number))
        }
        try statement.step()
    }

    /// The newest runs first.
    public func recentRuns(limit: Int) throws -> [[String: String]] {
        try database.rows("""
            SELECT run_id, pipeline, started, finished, status, model_version, read, inserted, updated, unchanged, rejected, rolled_back
            FROM _importer_runs ORDER BY started DESC LIMIT \(limit)
            """, names: ["runId", "pipeline", "started", "finished", "status", "modelVersion", "read", "inserted", "updated",
                         "unchanged", "rejected", "rolledBack"])
    }
}

extension WriteOutcome {
    var isInsert: Bool { if case .inserted = result { return true } else { return false } }

    /// Whether the store changed the item.
    var wrote: Bool {
        switch result {
        case .inserted, .updated: return true
        case .unchanged, .rolledBack, .rejected: return false
        }
    }
}
