import Foundation
import ImporterAWS
import ImporterCore
import Synchronization

/// The remote store: a DynamoDB table per entity (AWS itself or any endpoint speaking
/// DynamoDB's JSON protocol), written with conditional transactions so the version rules (docs/writes.md)
/// hold on the server, `concurrency` transactions in flight. Checkpoints go to a file
/// (`<report dir>/checkpoint.json`): a write is durable as soon as DynamoDB answers, and a
/// resumed run's replays are idempotent by the version rules.
///
/// The `Store` protocol is synchronous and called from the pipeline's writer thread; each call
/// runs its async requests through `runBlocking`, `concurrency` of them in flight.
public final class DynamoDBStore: Store, OverlappedWriting, RequestCounting, Sendable {
    /// How the store writes; the command maps the pipeline's destination and write sections
    /// onto them (docs/dynamodb.md).
    public struct Options: Sendable {
        public var tablePrefix = ""
        public var createTables = false
        public var dates: DateEncoding = .iso8601
        /// Writes per TransactWriteItems (at most 100).
        public var transactionSize = 25
        /// false: one conditional PutItem per item, and BatchWriteItem where no condition is
        /// needed (docs/writes.md: `mode: replace`, or a table empty when the run began).
        public var transactional = true
        /// Transactions (or batches) in flight.
        public var concurrency = 4
        /// Where checkpoints are kept; nil keeps none.
        public var checkpointFile: String?

        public init() {}

        /// Refuses settings DynamoDB cannot work with (`StoreError`, `.invalidSetting`).
        func check() throws {
            guard (1...DynamoDBStore.transactionActionLimit).contains(transactionSize) else {
                throw StoreError(
                    .invalidSetting("transactionSize"),
                    "a transaction of \(transactionSize) writes: DynamoDB takes 1 to \(DynamoDBStore.transactionActionLimit) per TransactWriteItems"
                )
            }
            guard concurrency >= 1 else {
                throw StoreError(
                    .invalidSetting("concurrency"), "\(concurrency) requests in flight: at least 1 is needed")
            }
        }
    }

    public let client: DynamoDBClient
    public let options: Options
    let tables: DynamoDBTables
    let retries = RetryCounter()
    /// `concurrency` groups in flight, across the windows being written at once.
    private let writeSlots: TaskSlots
    /// What the store's calls change, guarded: they come from the writer thread, but the store
    /// is shared with the tasks its calls start.
    private let state = Mutex(State())
    /// Keys found by `contains`, per entity, so references to the same parent ask once.
    private let knownKeys = Mutex<[String: Set<Value>]>([:])
    /// The open library transaction (an `ItemStore` call), if any: its changes until it commits.
    let openTransaction = Mutex<OpenTransaction?>(nil)

    private struct State {
        var codings: [String: DynamoItemCoding] = [:]
        /// Entities whose table was empty when the run began (`transactional: false` only).
        var emptyAtStart: Set<String> = []
        /// Per entity, whether its writes read the stored items first.
        var guesses: [String: StoredItemsGuess] = [:]
        var pendingCheckpoint: Checkpoint?
        /// The checkpoint's write rejections so far (read from its file once, then kept here).
        var checkpointRejections: [Checkpoint.WriteRejection]?
        /// Finished once the last window started has started all its groups.
        var lastWindowStarted: AsyncStream<Void>?
    }

    /// The store on `client`'s endpoint; nothing is sent until `prepare`. Throws `StoreError`
    /// (`.invalidSetting`) for options DynamoDB cannot work with.
    public init(client: DynamoDBClient, options: Options) throws {
        try options.check()
        self.client = client
        self.options = options
        writeSlots = TaskSlots(options.concurrency)
        tables = DynamoDBTables(
            client: client, prefix: options.tablePrefix, createMissing: options.createTables, dates: options.dates)
    }

    public func close() {}

    /// The table an entity's items are in.
    public func table(of entity: Entity) -> String { tables.table(of: entity) }

    package func prepare(for model: Model) throws {
        makeCodings(model)
        try runBlocking { [tables] in try await tables.prepare(model) }
    }

    /// Makes the store ready to read `model`'s tables without creating or writing anything (a
    /// dry run, an export). False when a table does not exist yet; `StoreError` (`.modelMismatch`)
    /// when the meta table records another version or checksum of the model.
    package func prepareToRead(_ model: Model) throws -> Bool {
        makeCodings(model)
        return try runBlocking { [tables] in
            guard try await tables.allExist(model) else { return false }
            _ = try await tables.checkRecordedModel(model)
            return true
        }
    }

    private func makeCodings(_ model: Model) {
        state.withLock { state in
            for entity in model.entities {
                state.codings[entity.name] = DynamoItemCoding(entity: entity, dates: options.dates)
            }
        }
    }

    func coding(_ entity: Entity) throws -> DynamoItemCoding {
        guard let coding = state.withLock({ $0.codings[entity.name] }) else {
            throw StoreError(.notPrepared, "entity \(entity.name) was not prepared", entity: entity.name)
        }
        return coding
    }

    // MARK: Runs and batches

    package var preferredCommitSize: Int { options.transactionSize * options.concurrency * 8 }

    package func takeRetries(of entity: Entity) -> Int { retries.take(for: entity.name) }

    package func takeConsumedCapacity(of entity: Entity) -> ConsumedUnits? {
        client.consumed.take(for: entity.name).map { ConsumedUnits(write: $0.write, read: $0.read) }
    }

    /// A run of the pipeline. DynamoDB writes each request for good, so it has no atomic run:
    /// `DynamoDBStore(configuration:…)` refuses `write.atomic` (docs/dynamodb.md).
    package func beginRun(atomic: Bool) throws {
        guard !atomic else {
            throw StoreError(
                .invalidSetting("atomic"),
                "DynamoDB writes each request for good: a run cannot be one transaction (use --resume instead)")
        }
        state.withLock {
            $0.emptyAtStart = []; $0.guesses = [:]
        }
        guard !options.transactional else { return }
        let entities = state.withLock { $0.codings.values.map(\.entity) }
        let empty = try runBlocking { [self] in
            var empty: Set<String> = []
            for entity in entities {
                var request = DynamoDB.Scan(tableName: tables.table(of: entity))
                request.limit = 1
                let page = try await client.send(request, entity: entity.name)
                if (page.count ?? 0) == 0 && page.lastEvaluatedKey == nil { empty.insert(entity.name) }
            }
            return empty
        }
        state.withLock { $0.emptyAtStart = empty }
    }

    package func finishRun(commit: Bool) throws {
        state.withLock { $0.emptyAtStart = [] }
    }

    package func commit() throws {
        let checkpoint = state.withLock { state in
            defer { state.pendingCheckpoint = nil }
            return state.pendingCheckpoint
        }
        guard let checkpoint, let path = options.checkpointFile else { return }
        try CheckpointFile.save(checkpoint, to: path)
    }

    // MARK: Writing

    package func write(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) throws -> [WriteOutcome] {
        try startWrite(records, of: entity, rules: rules).outcomes()
    }

    /// Sends the window's groups, `concurrency` in flight with those of a window started
    /// before, and returns at once: the runner hands over the next window while the last
    /// requests of this one are out. Groups start in input order, across windows too.
    package func startWrite(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) -> StartedWrite {
        if inTransaction {
            let outcomes = Result { try writeInTransaction(records, of: entity, rules: rules) }
            return StartedWrite { try outcomes.get() }
        }
        let writer: EntityWriter
        do { writer = try self.writer(of: entity, rules: rules) } catch { return StartedWrite { throw error } }
        let size = writer.groupSize(transactionSize: options.transactionSize)
        let groups = stride(from: 0, to: records.count, by: size).map { $0..<min($0 + size, records.count) }
        let (started, starting) = AsyncStream<Void>.makeStream()
        let previous = state.withLock { state in
            defer { state.lastWindowStarted = started }
            return state.lastWindowStarted
        }
        let stopped = StopFlag()
        let task = BlockingTask { [writeSlots] in
            let results = try await orderedMap(groups.count, slots: writeSlots, after: previous, started: starting) {
                index in
                // After a failure, the groups not yet sent stay unsent.
                guard !stopped.isSet else { return Result<[WriteOutcome], any Error>.failure(NotSent()) }
                do {
                    return .success(try await writer.write(records[groups[index]]))
                } catch {
                    stopped.set()
                    return .failure(error)
                }
            }
            return try Self.outcomes(of: results, groups: groups)
        }
        return StartedWrite { try task.wait() }
    }

    /// The outcomes of a window's groups, in order; if a group failed, `PartialWriteError` with
    /// every record's fate: what DynamoDB acknowledged is written (it rolls nothing back).
    private static func outcomes(of results: [Result<[WriteOutcome], any Error>], groups: [Range<Int>]) throws
        -> [WriteOutcome]
    {
        guard
            let failure = results.lazy.compactMap({ result -> (any Error)? in
                guard case .failure(let error) = result, !(error is NotSent) else { return nil }
                return error
            }).first
        else {
            return try results.flatMap { try $0.get() }
        }
        var fates: [PartialWriteError.Fate] = []
        for (group, result) in zip(groups, results) {
            switch result {
            case .success(let outcomes): fates += outcomes.map { .decided($0) }
            case .failure(let error as PartialWriteError): fates += error.fates
            case .failure(is NotSent): fates += group.map { _ in .notSent }
            case .failure: fates += group.map { _ in .unknown }
            }
        }
        throw PartialWriteError(fates: fates, underlying: (failure as? PartialWriteError)?.underlying ?? failure)
    }

    /// A group not sent because an earlier one failed.
    private struct NotSent: Error {}

    /// Set once a group of a window failed.
    private final class StopFlag: Sendable {
        private let flag = Mutex(false)
        var isSet: Bool { flag.withLock { $0 } }
        func set() { flag.withLock { $0 = true } }
    }

    /// DynamoDB writes each request for good; only the library's transactions (one
    /// TransactWriteItems) are all or nothing.
    package var rollsBack: Bool { inTransaction }

    /// The writer of an entity's window: its method from the options and the table's state.
    private func writer(of entity: Entity, rules: VersionRules) throws -> EntityWriter {
        let (empty, guess) = state.withLock { state in
            let guess = state.guesses[entity.name] ?? StoredItemsGuess()
            state.guesses[entity.name] = guess
            return (state.emptyAtStart.contains(entity.name), guess)
        }
        let method: EntityWriter.Method =
            options.transactional
            ? .transaction
            : (rules.mode == .replace || empty ? .batch : .eachConditional)
        return EntityWriter(
            client: client, entity: entity, table: tables.table(of: entity), coding: try coding(entity), rules: rules,
            retries: retries, method: method, knownEmpty: method == .batch && empty, guess: guess)
    }

    package func delete(_ key: Value, expectedVersion: Int64, of entity: Entity) throws -> Bool {
        if inTransaction { return try deleteInTransaction(key, expectedVersion: expectedVersion, of: entity) }
        let coding = try coding(entity)
        let request = DynamoDB.DeleteItem(
            tableName: tables.table(of: entity), key: coding.key(key),
            condition: DynamoDB.Condition(
                "#v = :v", names: ["#v": entity.versionAttribute], values: [":v": .n(String(expectedVersion))]))
        return try runBlocking { [self] in
            do {
                _ = try await client.send(request, retries: retries, entity: entity.name)
                return true
            } catch let error as DynamoDBError where error.code == .conditionalCheckFailed {
                return false
            } catch let error as DynamoDBError {
                throw StoreError.dynamoDB(error, at: tables.table(of: entity), entity: entity.name, key: key)
            }
        }
    }

    // MARK: Reading

    package func contains(_ key: Value, in entity: Entity) throws -> Bool {
        if inTransaction { return try itemInTransaction(key, of: entity) != nil }
        if knownKeys.withLock({ $0[entity.name]?.contains(key) ?? false }) { return true }
        let found = try fetch(key, of: entity, projection: true) != nil
        if found { knownKeys.withLock { _ = $0[entity.name, default: []].insert(key) } }
        return found
    }

    package func fetch(_ key: Value, of entity: Entity) throws -> [Value]? {
        if inTransaction { return try itemInTransaction(key, of: entity) }
        return try fetch(key, of: entity, projection: false)
    }

    func fetch(_ key: Value, of entity: Entity, projection: Bool) throws -> [Value]? {
        let coding = try coding(entity)
        var request = DynamoDB.GetItem(tableName: tables.table(of: entity), key: coding.key(key))
        if projection {
            request.projectionExpression = "#k"
            request.expressionAttributeNames = ["#k": entity.hashKey]
        }
        let response = try runBlocking { [self, request] in try await send(request, entity) }
        guard let item = response.item else { return nil }
        return projection ? [] : try coding.decode(item)
    }

    /// Inside a transaction, counts what it added and deleted too.
    package func count(of entity: Entity) throws -> Int {
        var total = 0
        try paginate(entity, countOnly: true) { page in total += page.count ?? 0 }
        for item in changesInTransaction(of: entity) {
            total += (item.current == nil ? 0 : 1) - (item.stored == nil ? 0 : 1)
        }
        return total
    }

    /// Inside a transaction, the table's items as it changed them.
    package func scan(_ entity: Entity, _ body: ([Value]) throws -> Void) throws {
        try itemsAsTheTransactionSees(entity, read: { stored in try paginate(entity, countOnly: false, stored) }, body)
    }

    /// The items that match `query`: a Query when it gives the hash key's value, else a Scan,
    /// each narrowed by a FilterExpression (`QueryExpression`); then judged, sorted and cut as
    /// the query says, in memory. Inside a transaction, the items it changed are judged as
    /// it changed them.
    package func items(matching query: ItemQuery, of entity: Entity, _ body: ([Value]) throws -> Void) throws {
        let expression = QueryExpression(query, entity: entity, coding: try coding(entity))
        try query.select(
            from: { candidate in
                try itemsAsTheTransactionSees(
                    entity,
                    read: { stored in
                        if expression.keyCondition != nil {
                            try queryPartition(entity, expression, stored)
                        } else {
                            try paginate(entity, countOnly: false, narrowedBy: expression, stored)
                        }
                    }, candidate)
            }, of: entity, body)
    }

    /// Calls `body` with every page of a consistent Query of one partition.
    private func queryPartition(
        _ entity: Entity, _ expression: QueryExpression, _ body: (DynamoDB.ItemsPage) throws -> Void
    ) throws {
        var request = DynamoDB.Query(
            tableName: tables.table(of: entity), keyCondition: expression.keyCondition ?? "",
            filter: expression.filter, names: expression.names, values: expression.values)
        repeat {
            let page = try runBlocking { [self, request] in try await send(request, entity) }
            try body(page)
            request.exclusiveStartKey = page.lastEvaluatedKey
        } while request.exclusiveStartKey != nil
    }

    /// Calls `body` with every page of a consistent Scan of the entity's table (narrowed by
    /// `expression`'s filter, if any): `concurrency` segments fetched concurrently, pages handed
    /// over in a fixed order (`SegmentedScan`).
    private func paginate(
        _ entity: Entity, countOnly: Bool, narrowedBy expression: QueryExpression? = nil,
        _ body: (DynamoDB.ItemsPage) throws -> Void
    ) throws {
        let table = tables.table(of: entity)
        let segments = options.concurrency
        let scan = SegmentedScan(segments: segments) { [self] segment, startKey in
            var request = DynamoDB.Scan(tableName: table)
            if segments > 1 {
                request.segment = segment
                request.totalSegments = segments
            }
            if let expression, let filter = expression.filter {
                request.filterExpression = filter
                request.expressionAttributeNames = expression.names
                request.expressionAttributeValues = expression.values.isEmpty ? nil : expression.values
            }
            if countOnly { request.select = "COUNT" }
            request.exclusiveStartKey = startKey
            return try await send(request, entity)
        }
        try scan.forEachPage(body)
    }

    func send<Request: DynamoDB.Operation>(_ request: Request, _ entity: Entity) async throws -> Request.Response {
        do {
            return try await client.send(request, retries: retries, entity: entity.name)
        } catch let error as DynamoDBError {
            throw StoreError.dynamoDB(error, at: tables.table(of: entity), entity: entity.name)
        }
    }

    // MARK: Checkpoint

    package func saveCheckpoint(_ checkpoint: Checkpoint, adding rejections: [Checkpoint.WriteRejection]) throws {
        guard let path = options.checkpointFile else { return }
        let known = state.withLock { $0.checkpointRejections }
        let all = try (known ?? CheckpointFile.load(from: path)?.rejections ?? []) + rejections
        var next = checkpoint
        next.rejections = all
        state.withLock { state in
            state.checkpointRejections = all
            state.pendingCheckpoint = next
        }
    }

    package func loadCheckpoint() throws -> Checkpoint? {
        guard let path = options.checkpointFile else { return nil }
        return try CheckpointFile.load(from: path)
    }

    package func clearCheckpoint() throws {
        state.withLock { state in
            state.pendingCheckpoint = nil
            state.checkpointRejections = []
        }
        guard let path = options.checkpointFile, FileManager.default.fileExists(atPath: path) else { return }
        try FileManager.default.removeItem(atPath: path)
    }
}
