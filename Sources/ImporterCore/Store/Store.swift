/// What the runner needs of a destination. Stores implement writing; the version rules they
/// apply live once, in `VersionRules`, so every store behaves the same.
public protocol Store: AnyObject, Sendable {
    /// Creates missing tables and checks the store's recorded model against `model`.
    /// Throws `ConfigurationError` when the store holds another model or version.
    func prepare(for model: Model) throws

    /// Whether an item with `key` is stored. Safe to call from another thread than `write`.
    func contains(_ key: Value, in entity: Entity) throws -> Bool

    /// Applies records under `rules`: one outcome per record, in order. A record the store
    /// refuses is rejected alone; the others go on. Writes become durable at the next `commit()`.
    /// Throws `StoreError` for failures of the store as a whole (disk full, I/O): everything
    /// since the last commit is then lost.
    func write(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) throws -> [WriteOutcome]

    /// Makes every write so far durable (ends the batch's transaction). Inside an atomic run,
    /// nothing is committed before `finishRun(commit: true)`.
    func commit() throws

    /// `atomic: true`: everything written until `finishRun` is one transaction.
    func beginRun(atomic: Bool) throws
    /// Commits (or, with `commit: false`, rolls back) what is still open.
    func finishRun(commit: Bool) throws

    /// How many items of `entity` are stored (the open transaction's writes included).
    func count(of entity: Entity) throws -> Int

    /// The stored item with `key` (values by attribute position), or nil. Sees the writes of
    /// the open transaction.
    func fetch(_ key: Value, of entity: Entity) throws -> [Value]?

    /// Calls `body` with every stored item of `entity` (values by attribute position), in no
    /// particular order. Sees the writes of the open transaction; `body` must not write.
    func scan(_ entity: Entity, _ body: ([Value]) throws -> Void) throws

    /// `scan` for exports: every stored item as a `StoredRow` read in place, valid only during
    /// `body`. Stores without an in-place reader get `ValuesRow`s of `scan`.
    func scanRows(_ entity: Entity, _ body: (any StoredRow) throws -> Void) throws

    /// Deletes the item with `key` if it is still at `expectedVersion`; false when it is gone or
    /// was changed meanwhile. Durable at the next `commit()`.
    func delete(_ key: Value, expectedVersion: Int64, of entity: Entity) throws -> Bool

    /// Saves `checkpoint`, and adds the batch's write-stage rejections to it, in the open
    /// transaction, so both become durable with the batch at the next `commit()` (SPEC §12).
    func saveCheckpoint(_ checkpoint: Checkpoint, adding rejections: [Checkpoint.WriteRejection]) throws
    /// The checkpoint of an interrupted run, if there is one.
    func loadCheckpoint() throws -> Checkpoint?
    /// Forgets the checkpoint: the run it belonged to finished.
    func clearCheckpoint() throws

    func close()

    /// Runs `body` on one consistent view of every entity (SQLite: one read transaction), so an
    /// export sees no write that happens meanwhile. Stores without snapshots just run it.
    func readingSnapshot<T>(_ body: () throws -> T) throws -> T

    /// Records the runner should hand to one `write` and commit together, when the store knows
    /// better than `write.batchSize` (a remote store sends a write's batches concurrently).
    var preferredCommitSize: Int? { get }
    /// Requests to the store retried since the last call, for the report (SPEC §8 `retries`).
    func takeRetries(of entity: Entity) -> Int
}

extension Store {
    public var preferredCommitSize: Int? { nil }
    public func takeRetries(of entity: Entity) -> Int { 0 }
    public func readingSnapshot<T>(_ body: () throws -> T) throws -> T { try body() }
    public func scanRows(_ entity: Entity, _ body: (any StoredRow) throws -> Void) throws {
        try scan(entity) { try body(ValuesRow($0)) }
    }

    /// Items stored per entity, in model order.
    public func counts(for model: Model) throws -> [(entity: String, count: Int)] {
        try model.entities.map { ($0.name, try count(of: $0)) }
    }
}

/// The outcome of one record's write.
public struct WriteOutcome: Sendable {
    public enum Result: Sendable {
        case inserted, updated, unchanged
        /// Discarded by `mergePolicy: rollback`: the stored item stays.
        case rolledBack
        case rejected(Rejection)
    }

    public var result: Result
    /// The record's version conflicted with the store's (resolved or not).
    public var conflict: Bool

    public init(_ result: Result, conflict: Bool = false) {
        self.result = result
        self.conflict = conflict
    }
}

/// A failure of the store as a whole: the run aborts (exit 3); committed batches stay.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
