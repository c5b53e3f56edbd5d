import Foundation
import ImporterCore
import Synchronization

/// The local store: one SQLite file, a table per entity (hash key as PRIMARY KEY, a version
/// column), `_importer_meta` with the model's name, version and checksum, `_importer_runs`
/// with the history of runs. WAL journal, prepared statements, one transaction per batch.
///
/// The store's work is done by `StoreConnection` (the writing connection) and `KeyLookup`
/// (a reading connection for `contains`), each under a lock of its own: the write stage and
/// the key stage use the store at the same time. The library's reads go to read-only
/// connections of their own (`ConcurrentReading`), opened as needed and kept for reuse.
public final class SQLiteStore: Store, BulkLoading, RunHistory, ConcurrentReading, UnchangedInputRecords, Sendable {
    public let path: String
    private let connection: Locked<StoreConnection>
    private let lookup: Locked<KeyLookup>
    /// Readers not in use, and the model they are prepared for (the last `prepare`'s).
    private let readers = Mutex<(idle: [Locked<StoreConnection>], model: Model?)>(([], nil))

    /// Opens or creates the store file (and its directory).
    public init(path: String) throws {
        self.path = path
        connection = Locked(try StoreConnection(path: path))
        lookup = Locked(KeyLookup(path: path))
    }

    /// Opens an existing store without creating anything (`inspect`).
    public init(existingPath path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ConfigurationError(file: path, "the store does not exist yet; run the pipeline first")
        }
        self.path = path
        connection = Locked(try StoreConnection(existingPath: path))
        lookup = Locked(KeyLookup(path: path))
    }

    public func close() {
        connection.withLock { $0.close() }
        lookup.withLock { $0.close() }
        for reader in readers.withLock({ $0.idle }) { reader.withLock { $0.close() } }
    }

    /// Runs `body` with the writing connection, under its lock. `body` must not call the store:
    /// the lock is not recursive.
    func withConnection<T, Failure: Error>(_ body: (StoreConnection) throws(Failure) -> T) throws(Failure) -> T {
        try connection.withLock(body)
    }

    // MARK: Schema

    package func prepare(for model: Model) throws {
        try withConnection { try $0.prepare(for: model) }
        let stale = readers.withLock { readers in
            defer { readers = ([], model) }
            return readers.idle
        }
        for reader in stale { reader.withLock { $0.close() } }
    }

    /// Makes a store opened with `init(existingPath:)` ready to read `model`'s tables (a dry
    /// run's sync preview); nothing is created or written.
    package func prepareToRead(_ model: Model) throws {
        try withConnection { try $0.prepareToRead(model) }
    }

    /// The model the store holds; nil for a new store, or a file importer did not write.
    public func recordedModel() throws -> ModelIdentity? {
        try withConnection { StoreConnection.recordedModel(try $0.meta()) }
    }

    // MARK: Reading

    package func contains(_ key: Value, in entity: Entity) throws -> Bool {
        try lookup.withLock { try $0.contains(key, in: entity) }
    }

    package func lookingUp<T>(_ body: () -> T) -> T {
        lookup.withLock { $0.beginBatch() }
        defer { lookup.withLock { $0.endBatch() } }
        return body()
    }

    package func count(of entity: Entity) throws -> Int {
        try withConnection { try $0.count(of: entity) }
    }

    package func fetch(_ key: Value, of entity: Entity) throws -> [Value]? {
        try withConnection { try $0.fetch(key, of: entity) }
    }

    package func scan(_ entity: Entity, _ body: ([Value]) throws -> Void) throws {
        try withConnection { try $0.scan(entity, body) }
    }

    package func scanRows(_ entity: Entity, _ body: (any StoredRow) throws -> Void) throws {
        try withConnection { try $0.scanRows(entity, body) }
    }

    /// Runs `body`, whose reads call the store, in one read transaction of the writing
    /// connection. The connection's lock is taken to begin and to end it, not across `body`.
    package func readingSnapshot<T>(_ body: () throws -> T) throws -> T {
        guard try withConnection({ try $0.beginReadingSnapshot() }) else { return try body() }
        let result: T
        do {
            result = try body()
        } catch {
            try? withConnection { try $0.endReadingSnapshot(failed: true) }
            throw error
        }
        try withConnection { try $0.endReadingSnapshot(failed: false) }
        return result
    }

    package func items(matching query: ItemQuery, of entity: Entity, _ body: ([Value]) throws -> Void) throws {
        try withConnection { try $0.items(matching: query, of: entity, body) }
    }

    /// Runs `body` with a read-only connection (WAL: it reads beside the writing connection
    /// and sees its last commit), an idle one or a new one, given back afterwards.
    package func withReader<T>(_ body: (any ItemQuerying) throws -> T) throws -> T {
        let reader = try takeReader()
        defer { readers.withLock { $0.idle.append(reader) } }
        return try reader.withLock { try body($0) }
    }

    private func takeReader() throws -> Locked<StoreConnection> {
        let (idle, model) = readers.withLock { readers in (readers.idle.popLast(), readers.model) }
        if let idle { return idle }
        guard let model else { throw StoreError(.notPrepared, "\(path): the store was not prepared for a model") }
        let connection = try StoreConnection(existingPath: path)
        try connection.prepareToRead(model)
        return Locked(connection)
    }

    // MARK: Writing

    package func write(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) throws -> [WriteOutcome] {
        try withConnection { try $0.write(records, of: entity, rules: rules) }
    }

    package func delete(_ key: Value, expectedVersion: Int64, of entity: Entity) throws -> Bool {
        try withConnection { try $0.delete(key, expectedVersion: expectedVersion, of: entity) }
    }

    package func beginRun(atomic: Bool) throws {
        try withConnection { try $0.beginRun(atomic: atomic) }
    }

    package func finishRun(commit: Bool) throws {
        // The key checks are done: a bulk load's build may then have the file to itself.
        lookup.withLock { $0.close() }
        try withConnection { try $0.finishRun(commit: commit) }
    }

    package func commit() throws {
        try withConnection { try $0.commit() }
    }

    /// Runs `body` inside a savepoint of the batch's transaction, kept or returned to as it says.
    package func writingGroups(_ body: () throws -> GroupCompletion) throws {
        try withConnection { try $0.beginGroups() }
        let completion: GroupCompletion
        do {
            completion = try body()
        } catch {
            try? withConnection { try $0.endGroups(keeping: false) }
            throw error
        }
        try withConnection { try $0.endGroups(keeping: completion == .keep) }
    }

    package func unchangedInputs(of model: Model) throws -> [UnchangedInput] {
        try withConnection { try $0.unchangedInputs(of: model) }
    }

    package func recordUnchangedInputs(_ inputs: [UnchangedInput], of model: Model) throws -> Bool {
        try withConnection { try $0.recordUnchangedInputs(inputs, of: model) }
    }

    /// Loads the entities whose tables are empty on the bulk path: staged in the store (or
    /// beside it, `<path>.bulk`), their tables built in key order by `finishRun(commit: true)`.
    package func beginBulkLoad(of entities: [Entity], newLoads: Bool, resuming: Bool) throws -> Set<String> {
        let loaded = try withConnection {
            try $0.beginBulkLoad(of: entities, newLoads: newLoads, resuming: resuming)
        }
        lookup.withLock { $0.loadedInBulk = loaded }
        return loaded
    }

    /// The content index that currently decides re-written items of `entity`, if any: how many
    /// items it read, with how many threads.
    func contentIndexSize(_ entity: Entity) -> (items: Int, readers: Int)? {
        withConnection { $0.contentIndexes.indexSize(entity) }
    }

    /// How many rows the content window of `entity` has read, if it has one.
    func contentWindowRows(_ entity: Entity) -> Int? {
        withConnection { $0.contentIndexes.windowRows(entity) }
    }

    /// Tables with more rowids than this are decided through a content window first (tests
    /// lower it).
    var contentWindowThreshold: Int {
        get { withConnection { $0.contentIndexes.windowThreshold } }
        set { withConnection { $0.contentIndexes.windowThreshold = newValue } }
    }

    // MARK: Checkpoint and run history

    package func saveCheckpoint(_ checkpoint: Checkpoint, adding rejections: [Checkpoint.WriteRejection]) throws {
        try withConnection { try $0.saveCheckpoint(checkpoint, adding: rejections) }
    }

    package func loadCheckpoint() throws -> Checkpoint? {
        try withConnection { try $0.loadCheckpoint() }
    }

    package func clearCheckpoint() throws {
        try withConnection { try $0.clearCheckpoint() }
    }

    /// Appends a finished run to `_importer_runs`.
    package func recordRun(_ report: RunReport) throws {
        try withConnection { try $0.recordRun(report) }
    }

    /// The newest runs first.
    public func recentRuns(limit: Int) throws -> [RunSummary] {
        try withConnection { try $0.recentRuns(limit: limit) }
    }

    // MARK: Models and migrations

    /// Migrates the store through every step of `plan` in one transaction: all or nothing
    /// (docs/migration.md). The items of `deleting` (start-version entity names) are deleted first.
    /// Items that fail a step are left out of later steps and returned; the transaction is
    /// committed only when `commit` is set and nothing failed.
    package func migrate(_ plan: MigrationPlan, commit: Bool, deleting: [String: [Value]] = [:], note: String? = nil)
        throws -> MigrationOutcome
    {
        try withConnection { try $0.migrate(plan, commit: commit, deleting: deleting, note: note) }
    }

    /// Records a migration that failed and was rolled back.
    package func recordFailedMigration(_ plan: MigrationPlan, started: Date, failedItems: Int, note: String) throws {
        try withConnection {
            try $0.recordFailedMigration(plan, started: started, failedItems: failedItems, note: note)
        }
    }

    /// Accepts an edited model file for the version the store holds: the store records the
    /// new checksum, and the history says who accepted what.
    package func acceptModelChange(_ model: Model, previousChecksum: String) throws {
        try withConnection { try $0.acceptModelChange(model, previousChecksum: previousChecksum) }
    }

    /// The history, oldest first.
    public func migrationHistory() throws -> [MigrationRecord] {
        try withConnection { try $0.migrationHistory() }
    }

    /// The model version the store holds, from the versions of its model directory. A model
    /// file whose checksum differs from what the store recorded is refused unless
    /// `acceptModelChange`, which records the new checksum and says so in the history.
    package func storedModel(in versions: VersionedModel, acceptModelChange: Bool) throws -> Model {
        try withConnection { try $0.storedModel(in: versions, acceptModelChange: acceptModelChange) }
    }

    /// Before a run: accepts an edited model file for the store's version (`--accept-model-change`).
    package func acceptModelChangeIfNeeded(_ model: Model) throws {
        try withConnection { try $0.acceptModelChangeIfNeeded(model) }
    }
}
