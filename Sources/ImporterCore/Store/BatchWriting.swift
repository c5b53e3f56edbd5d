/// Writes in batches: records applied under the version rules, made durable by commits.
/// The version rules live once, in `VersionRules`, so every store behaves the same. What only
/// one backend does is a capability of its own (`OverlappedWriting`, `RequestCounting`,
/// `BulkLoading`), which the pipeline asks for.
package protocol BatchWriting: AnyObject, Sendable {
    /// Applies records under `rules`: one outcome per record, in order. A record the store
    /// refuses is rejected alone; the others go on. Writes become durable at the next `commit()`.
    /// Throws `StoreError` for failures of the store as a whole (disk full, I/O): everything
    /// since the last commit is then lost.
    func write(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) throws -> [WriteOutcome]

    /// Runs `body`, which writes whole record groups (documents), so that its writes are kept
    /// or undone together (docs/documents.md#rejections): undone when it returns `.undo`, kept
    /// until the batch's commit when it returns `.keep`. A store that cannot keep or undo writes
    /// together (`maximumGroupRecords` 0) throws `StoreError` for `.undo`.
    func writingGroups(_ body: () throws -> GroupCompletion) throws

    /// The most records a `writingGroups` body may write: nil when there is no limit (a SQLite
    /// savepoint), 0 when the store cannot keep or undo writes together (DynamoDB's
    /// BatchWriteItem): its documents are then written parents first.
    var maximumGroupRecords: Int? { get }

    /// What the store would refuse of `records` whatever it holds (an item over DynamoDB's
    /// 400 KB), by position: asked before a document is written, so that no item of it is.
    func refusals(of records: ArraySlice<PreparedRecord>, entity: Entity) -> [(position: Int, rejection: Rejection)]

    /// Makes every write so far durable (ends the batch's transaction). Inside an atomic run,
    /// nothing is committed before `finishRun(commit: true)`.
    func commit() throws

    /// `atomic: true`: everything written until `finishRun` is one transaction.
    func beginRun(atomic: Bool) throws
    /// Commits (or, with `commit: false`, rolls back) what is still open.
    func finishRun(commit: Bool) throws

    /// Whether what was written since the last commit is undone when the store fails (SQLite's
    /// transaction). A store that writes each request for good (DynamoDB) says false: a failed
    /// write then throws `PartialWriteError`, and what it acknowledged counts as written.
    var rollsBack: Bool { get }
}

/// Why a store that sends a `writingGroups` body's writes as one request (DynamoDB's
/// TransactWriteItems) did not apply them: nothing of them was written.
package enum GroupNotApplied: Error, Sendable {
    /// An item changed since the body read it (another writer): the groups are written again.
    case changed
    /// The store refused an item: the groups are written again without its group.
    case refused(entity: String, key: Value, message: String)
    /// The store refused the request as a whole, naming no item (too large, say).
    case refusedWhole(message: String)
}

/// What the body of `BatchWriting.writingGroups` asks for when it returns.
package enum GroupCompletion: Sendable {
    /// Keep what it wrote.
    case keep
    /// Undo what it wrote: a group of it was refused.
    case undo
}

extension BatchWriting {
    package var rollsBack: Bool { true }

    package var maximumGroupRecords: Int? { nil }

    /// A store that holds whatever the model's types hold refuses nothing before writing.
    package func refusals(of records: ArraySlice<PreparedRecord>, entity: Entity)
        -> [(position: Int, rejection: Rejection)]
    { [] }
}

/// A store whose writes wait on the network (DynamoDB): the runner hands it the next window of
/// records before it has answered this one, and commits by its size.
package protocol OverlappedWriting: BatchWriting {
    /// Records the runner should hand to one `write` and commit together: the store sends a
    /// write's batches concurrently.
    var preferredCommitSize: Int { get }

    /// `write` started and left running: the runner takes the outcomes later, in the order the
    /// writes were started, and may start the next one meanwhile (never with the same key).
    /// `commit()` may then come while a later write is still running.
    func startWrite(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) -> StartedWrite
}

/// A store that reads many stored items in one request (DynamoDB's BatchGetItem): the
/// documents the write stage looks up before writing them (docs/documents.md#rejections) cost
/// a request per hundred keys, not one per key.
package protocol BatchFetching: AnyObject, Sendable {
    /// The stored items with `keys` (nil where none), in order, as a consistent read sees them.
    func fetch(_ keys: [Value], of entity: Entity) throws -> [[Value]?]
}

/// A store that counts its requests for the report: retries and consumed capacity
/// (docs/reports.md `retries`, docs/dynamodb.md).
package protocol RequestCounting: AnyObject, Sendable {
    /// Requests to the store retried since the last call.
    func takeRetries(of entity: Entity) -> Int
    /// Capacity units the store said its requests consumed since the last call; nil when the
    /// service reports none.
    func takeConsumedCapacity(of entity: Entity) -> ConsumedUnits?
}

/// A store with a bulk path (SQLite): an entity whose table is empty is loaded faster than
/// record by record (staged, then built in key order when the run finishes), with the same
/// outcomes.
package protocol BulkLoading: AnyObject, Sendable {
    /// Offers the run's `entities` to the bulk path, after `beginRun` and before the first
    /// write. `newLoads: false` allows no new bulk load; a run `resuming` an interrupted one
    /// continues that run's bulk loads either way. Returns the entities the store loads so.
    func beginBulkLoad(of entities: [Entity], newLoads: Bool, resuming: Bool) throws -> Set<String>
}

/// Capacity units consumed by writes and by reads (DynamoDB's WCU and RCU).
package struct ConsumedUnits: Sendable, Equatable {
    package var write: Double
    package var read: Double

    package init(write: Double, read: Double) { (self.write, self.read) = (write, read) }
}
