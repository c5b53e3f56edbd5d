import CSQLite
import Foundation
import ImporterCore

/// The store's writing connection and everything that uses it: the entities' prepared
/// statements, the batch's open transaction, and the state of each optimisation in a type of
/// its own: the content indexes (`ContentIndexes`), the unchanged-inputs watch
/// (`UnchangedInputWatch`) and the bulk load (`BulkLoad`). `SQLiteStore` keeps it under a lock;
/// it is not thread-safe itself.
///
/// Its work is split by concern: `StoreConnection+Schema` (tables and `_importer_meta`),
/// `+Writing` (items, batches), `+UnchangedInputs`, `+Journal`, `+RunRecords` (checkpoints,
/// run history), `+Query`, `Bulk/StoreConnection+BulkLoad` and `Migration/`.
final class StoreConnection {
    let path: String
    let database: Database
    var statements: [String: EntityStatements] = [:]
    /// An atomic run or a library transaction is open: `commit()` leaves it open, for its end
    /// to commit or roll back.
    var holdsCommits = false
    /// Entities whose stored content is fingerprinted, so re-written items are found unchanged
    /// without a statement.
    let contentIndexes: ContentIndexes
    /// The entities this run loads on the bulk path, if any.
    var bulk: BulkLoad?
    /// Whether rows were staged for a bulk load since `beginGroups`.
    var groupsStagedBulkRows = false
    /// Whether another connection committed while this run wrote.
    var inputWatch = UnchangedInputWatch()
    /// Checkpoints the WAL on a thread of its own while a run writes (`beginRun`).
    var checkpointer: WALCheckpointer?
    /// The bulk load stages under a rollback journal; the store goes back to WAL when the run
    /// finishes (`beginBulkLoad`, docs/writes.md#bulk-loads).
    var stagesUnderRollbackJournal = false

    /// The page cache (`PRAGMA cache_size`): 64 MiB.
    static let cacheSize = -65536

    /// Opens or creates the store file (and its directory).
    init(path: String) throws {
        self.path = path
        let directory = FilePaths.directory(of: path)
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        database = try Database(path: path)
        contentIndexes = ContentIndexes(database: database, path: path)
        // 8 KiB pages (for a new file): fewer, fuller B-tree pages; about 9% faster bulk loads than 4 KiB.
        try database.execute("PRAGMA page_size = 8192")
        try Self.enterWAL(database)
        try database.execute("PRAGMA synchronous = NORMAL; PRAGMA cache_size = \(Self.cacheSize)")
    }

    /// Puts the store in WAL mode, which it keeps between runs. A run staging a first import
    /// holds it under a rollback journal (docs/writes.md#bulk-loads), and the switch cannot
    /// take the lock it needs then: this connection works under that journal, and the run puts
    /// the store back in WAL mode when it finishes.
    private static func enterWAL(_ database: Database) throws {
        do {
            try database.execute("PRAGMA journal_mode = WAL")
        } catch let error as SQLiteError where error.primaryCode == SQLITE_BUSY {}
    }

    /// Opens an existing store read-only.
    init(existingPath path: String) throws {
        self.path = path
        database = try Database(path: path, readOnly: true)
        contentIndexes = ContentIndexes(database: database, path: path)
    }

    func close() {
        stopCheckpointer()
        leaveRollbackJournal()
        bulk = nil
        statements = [:]
        contentIndexes.forgetAll()
        database.clearCache()
    }

    // MARK: Reading

    func count(of entity: Entity) throws -> Int {
        Int(try database.integer("SELECT count(*) FROM \(quoted(entity.table))"))
    }

    func fetch(_ key: Value, of entity: Entity) throws -> [Value]? {
        let select = try prepared(entity).select
        let parts = entity.keyParts(key)
        return try select.withArguments(parts) {
            for (index, part) in parts.enumerated() { try select.bind(part, at: Int32(index + 1)) }
            defer { select.reset() }
            return try select.step() ? row(select, entity) : nil
        }
    }

    func scan(_ entity: Entity, _ body: ([Value]) throws -> Void) throws {
        let scan = try prepared(entity).scan
        defer { scan.reset() }
        while try scan.step() { try body(row(scan, entity)) }
    }

    func scanRows(_ entity: Entity, _ body: (any StoredRow) throws -> Void) throws {
        let scan = try prepared(entity).scan
        defer { scan.reset() }
        let row = StatementRow(statement: scan)
        while try scan.step() { try body(row) }
    }

    /// Begins a read transaction, so the reads until `endReadingSnapshot` see one snapshot;
    /// false when a transaction is open already (its reads are one snapshot anyway).
    func beginReadingSnapshot() throws -> Bool {
        guard database.isAutocommit else { return false }
        try database.begin(.deferred)
        return true
    }

    /// Ends the read transaction `beginReadingSnapshot` began: nothing to lose either way, so
    /// after a failed read (`failed`) it is rolled back, else committed.
    func endReadingSnapshot(failed: Bool) throws {
        guard !database.isAutocommit else { return }
        guard !failed else { return database.rollBackQuietly() }
        do {
            try database.commit()
        } catch {
            database.rollBackQuietly()
            throw error
        }
    }

    func row(_ statement: Statement, _ entity: Entity) -> [Value] {
        entity.attributes.enumerated().map { index, attribute in
            ValueColumns.read(statement, column: Int32(index), as: attribute.type)
        }
    }

    func prepared(_ entity: Entity) throws -> EntityStatements {
        guard let statements = statements[entity.name] else {
            throw StoreError(.notPrepared, "\(path): entity \(entity.name) was not prepared", entity: entity.name)
        }
        return statements
    }
}

extension StoreConnection: ItemQuerying {}
