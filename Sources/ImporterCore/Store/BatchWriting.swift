/// Writes in batches: records applied under the version rules, made durable by commits.
/// The version rules live once, in `VersionRules`, so every store behaves the same.
package protocol BatchWriting: AnyObject, Sendable {
    /// Applies records under `rules`: one outcome per record, in order. A record the store
    /// refuses is rejected alone; the others go on. Writes become durable at the next `commit()`.
    /// Throws `StoreError` for failures of the store as a whole (disk full, I/O): everything
    /// since the last commit is then lost.
    func write(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) throws -> [WriteOutcome]

    /// `write` started and left running: the runner takes the outcomes later, in the order the
    /// writes were started, and may start the next one meanwhile (never with the same key).
    /// Only a store with a `preferredCommitSize` is called so, and its `commit()` may then come
    /// while a later write is still running. By default the write runs at once.
    func startWrite(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) -> StartedWrite

    /// Makes every write so far durable (ends the batch's transaction). Inside an atomic run,
    /// nothing is committed before `finishRun(commit: true)`.
    func commit() throws

    /// `atomic: true`: everything written until `finishRun` is one transaction.
    func beginRun(atomic: Bool) throws
    /// Commits (or, with `commit: false`, rolls back) what is still open.
    func finishRun(commit: Bool) throws

    /// Records the runner should hand to one `write` and commit together, when the store knows
    /// better than `write.batchSize` (a remote store sends a write's batches concurrently). Such
    /// a store's writes are started with `startWrite`, each before the last one's outcomes are
    /// taken.
    var preferredCommitSize: Int? { get }
    /// Requests to the store retried since the last call, for the report (docs/reports.md `retries`).
    func takeRetries(of entity: Entity) -> Int
    /// Capacity units the store said its requests consumed since the last call (docs/dynamodb.md);
    /// nil for a store that does not count capacity.
    func takeConsumedCapacity(of entity: Entity) -> ConsumedUnits?

    /// Offers the run's `entities` to the store's bulk path, after `beginRun` and before the
    /// first write: a store may load an entity whose table is empty faster than record by
    /// record (staged, then built in key order when the run finishes), with the same outcomes.
    /// `newLoads: false` allows no new bulk load; a run `resuming` an interrupted one continues
    /// that run's bulk loads either way. Returns the entities the store loads so.
    func beginBulkLoad(of entities: [Entity], newLoads: Bool, resuming: Bool) throws -> Set<String>

    /// Whether what was written since the last commit is undone when the store fails (SQLite's
    /// transaction). A store that writes each request for good (DynamoDB) says false: a failed
    /// write then throws `PartialWriteError`, and what it acknowledged counts as written.
    var rollsBack: Bool { get }
}

/// Capacity units consumed by writes and by reads (DynamoDB's WCU and RCU).
package struct ConsumedUnits: Sendable, Equatable {
    package var write: Double
    package var read: Double

    package init(write: Double, read: Double) { (self.write, self.read) = (write, read) }
}

extension BatchWriting {
    package var rollsBack: Bool { true }
    package var preferredCommitSize: Int? { nil }
    package func startWrite(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) -> StartedWrite {
        let outcomes = Result { try write(records, of: entity, rules: rules) }
        return StartedWrite { try outcomes.get() }
    }
    package func takeRetries(of entity: Entity) -> Int { 0 }
    package func takeConsumedCapacity(of entity: Entity) -> ConsumedUnits? { nil }
    package func beginBulkLoad(of entities: [Entity], newLoads: Bool, resuming: Bool) throws -> Set<String> { [] }
}
