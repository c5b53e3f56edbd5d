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
/// Its requests are async: the library's calls await them (`ItemAccess`) and hold no thread. The
/// `Store` protocol is synchronous and called from the pipeline's writer thread; its methods
/// wait for the async operations through one bridge (`DynamoDBStore+Blocking.swift`),
/// `concurrency` requests in flight.
public final class DynamoDBStore: Store, ItemAccess, OverlappedWriting, RequestCounting, BatchFetching, Sendable {
    /// None: the requests are awaited, no thread waits on them.
    package var callExecutor: (any TaskExecutor)? { nil }
    /// None: reads wait for the write in progress, which DynamoDB sends only at its commit.
    package var concurrentReads: (any ItemReadAccess)? { nil }

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

    /// Creates missing tables (when the options allow) and checks the model the meta table
    /// records against `model` (`StoreError`, `.modelMismatch`).
    package func prepareTables(for model: Model) async throws {
        makeCodings(model)
        try await tables.prepare(model)
    }

    /// Makes the store ready to read `model`'s tables without creating or writing anything (a
    /// dry run, an export). False when a table does not exist yet; `StoreError` (`.modelMismatch`)
    /// when the meta table records another version or checksum of the model.
    package func prepareTablesToRead(_ model: Model) async throws -> Bool {
        makeCodings(model)
        guard try await tables.allExist(model) else { return false }
        _ = try await tables.checkRecordedModel(model)
        return true
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
    func startRun(atomic: Bool) async throws {
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
        let empty = try await emptyTables(of: entities)
        state.withLock { $0.emptyAtStart = empty }
    }

    /// The entities whose table holds no item: one Scan of one item each.
    private func emptyTables(of entities: [Entity]) async throws -> Set<String> {
        var empty: Set<String> = []
        for entity in entities {
            var request = DynamoDB.Scan(tableName: tables.table(of: entity))
            request.limit = 1
            let page = try await client.send(request, entity: entity.name)
            if (page.count ?? 0) == 0 && page.lastEvaluatedKey == nil { empty.insert(entity.name) }
        }
        return empty
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

    /// The operation that writes a window (`startWrite`): it sends the window's groups,
    /// `concurrency` in flight with those of a window started before. Groups start in input
    /// order, across windows too: the window takes its place in that order here, when it is
    /// handed over, not when the operation starts. Inside a transaction, the writes wait for
    /// its commit.
    func windowWrite(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules)
        -> @Sendable () async throws -> [WriteOutcome]
    {
        if inTransaction { return { try await self.writeInTransaction(records, of: entity, rules: rules) } }
        let writer: EntityWriter
        do { writer = try self.writer(of: entity, rules: rules) } catch { return { throw error } }
        let size = writer.groupSize(transactionSize: options.transactionSize)
        let groups = stride(from: 0, to: records.count, by: size).map { $0..<min($0 + size, records.count) }
        let (started, starting) = AsyncStream<Void>.makeStream()
        let previous = state.withLock { state in
            defer { state.lastWindowStarted = started }
            return state.lastWindowStarted
        }
        let stopped = StopFlag()
        return { [writeSlots] in
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

    /// The records DynamoDB would refuse: an empty string as a key attribute, an item over
    /// 400 KB (counted with the largest version number the rules may give it).
    package func refusals(of records: ArraySlice<PreparedRecord>, entity: Entity)
        -> [(position: Int, rejection: Rejection)]
    {
        guard let coding = try? coding(entity) else { return [] }
        var refused: [(position: Int, rejection: Rejection)] = []
        for position in records.indices {
            let values = records[position].values
            if let empty = entity.keyIndices.first(where: { values[$0] == .string("") }) {
                let name = entity.attributes[empty].name
                refused.append(
                    (
                        position,
                        Rejection(
                            stage: .write, reason: .required, field: name,
                            "\(name) is an empty string, which DynamoDB does not take as a key attribute")
                    ))
                continue
            }
            let size = coding.itemSize(values, version: .max)
            if size > EntityWriter.maxItemBytes { refused.append((position, EntityWriter.tooLarge(size))) }
        }
        return refused
    }

    /// DynamoDB writes each request for good; only the library's transactions (one
    /// TransactWriteItems) are all or nothing.
    package var rollsBack: Bool { inTransaction }

    /// One TransactWriteItems holds a hundred items; BatchWriteItem (`transactional: false`)
    /// writes each for good.
    package var maximumGroupRecords: Int? { options.transactional ? Self.transactionActionLimit : 0 }

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

    /// Deletes the item with `key` if it is still at `expectedVersion`; false when it is gone or
    /// was changed meanwhile. Inside a transaction, the deletion waits for its commit.
    package func deleteItem(_ key: Value, expectedVersion: Int64, of entity: Entity) async throws -> Bool {
        if inTransaction { return try await deleteInTransaction(key, expectedVersion: expectedVersion, of: entity) }
        let coding = try coding(entity)
        let request = DynamoDB.DeleteItem(
            tableName: tables.table(of: entity), key: coding.key(key),
            condition: DynamoDB.Condition(
                "#v = :v", names: ["#v": entity.versionAttribute], values: [":v": .n(String(expectedVersion))]))
        do {
            _ = try await client.send(request, retries: retries, entity: entity.name)
            return true
        } catch let error as DynamoDBError where error.code == .conditionalCheckFailed {
            return false
        } catch let error as DynamoDBError {
            throw StoreError.dynamoDB(error, at: tables.table(of: entity), entity: entity.name, key: key)
        }
    }

    // MARK: Reading

    /// Whether an item with `key` is stored (a key found once is not asked for again).
    package func containsItem(_ key: Value, in entity: Entity) async throws -> Bool {
        if inTransaction { return try await itemInTransaction(key, of: entity) != nil }
        if isKnown(key, in: entity) { return true }
        let found = try await storedItem(key, of: entity, projection: true) != nil
        if found { knownKeys.withLock { _ = $0[entity.name, default: []].insert(key) } }
        return found
    }

    /// Whether `containsItem` found the key before.
    func isKnown(_ key: Value, in entity: Entity) -> Bool {
        knownKeys.withLock { $0[entity.name]?.contains(key) ?? false }
    }

    /// The item with `key` (values by attribute position), or nil; inside a transaction, as it sees it.
    package func item(_ key: Value, of entity: Entity) async throws -> [Value]? {
        if inTransaction { return try await itemInTransaction(key, of: entity) }
        return try await storedItem(key, of: entity, projection: false)
    }

    /// The stored items with `keys` (nil where none), by consistent BatchGetItems.
    func items(_ keys: [Value], of entity: Entity) async throws -> [[Value]?] {
        try await writer(of: entity, rules: VersionRules(entity: entity, write: WriteConfig())).read(keys)
    }

    /// The stored item with `key` (a consistent GetItem); with `projection`, only whether it is
    /// stored (an empty array).
    func storedItem(_ key: Value, of entity: Entity, projection: Bool) async throws -> [Value]? {
        let coding = try coding(entity)
        var request = DynamoDB.GetItem(tableName: tables.table(of: entity), key: coding.key(key))
        if projection {
            request.projectionExpression = "#k"
            request.expressionAttributeNames = ["#k": entity.hashKey]
        }
        let response = try await send(request, entity)
        guard let item = response.item else { return nil }
        return projection ? [] : try coding.decode(item)
    }

    /// How many items of `entity` are stored; inside a transaction, with what it added and deleted.
    package func itemCount(of entity: Entity) async throws -> Int {
        var total = 0
        try await pages(of: entity, countOnly: true).forEach { page in total += page.count ?? 0 }
        return total + countChangedInTransaction(of: entity)
    }

    /// Every item of `entity`; inside a transaction, as it changed them.
    package func allItems(of entity: Entity) async throws -> [[Value]] {
        try await items(of: entity, where: { _ in true })
    }

    /// The items of `entity` that `include` keeps, page by page; inside a transaction, as it changed them.
    package func items(of entity: Entity, where include: @Sendable ([Value]) -> Bool) async throws -> [[Value]] {
        var items: [[Value]] = []
        let view = try TransactionView(self, entity)
        try await pages(of: entity).forEach { page in
            try view.items(of: page) { if include($0) { items.append($0) } }
        }
        try view.itemsChanged { if include($0) { items.append($0) } }
        return items
    }

    /// The items that match `query`, in its order and up to its limit (`items(matching:of:_:)`).
    package func items(matching query: ItemQuery, of entity: Entity) async throws -> [[Value]] {
        var candidates: [[Value]] = []
        let view = try TransactionView(self, entity)
        try await pages(of: entity, matching: query).forEach { page in
            try view.items(of: page) { candidates.append($0) }
        }
        try view.itemsChanged { candidates.append($0) }
        var selected: [[Value]] = []
        try query.select(from: { candidate in try candidates.forEach(candidate) }, of: entity) { selected.append($0) }
        return selected
    }

    /// The pages a query reads: a Query when it gives the hash key's value, else a Scan, each
    /// narrowed by a FilterExpression (`QueryExpression`); the query itself is judged after.
    func pages(of entity: Entity, matching query: ItemQuery) throws -> any ItemPages {
        let expression = QueryExpression(query, entity: entity, coding: try coding(entity))
        guard let keyCondition = expression.keyCondition else { return pages(of: entity, narrowedBy: expression) }
        let request = DynamoDB.Query(
            tableName: tables.table(of: entity), keyCondition: keyCondition,
            filter: expression.filter, names: expression.names, values: expression.values)
        return QueryPages(request) { [self] request in try await send(request, entity) }
    }

    /// The pages of a consistent Scan of the entity's table (narrowed by `expression`'s filter,
    /// if any): `concurrency` segments fetched concurrently, pages handed over in a fixed order
    /// (`SegmentedScan`).
    func pages(of entity: Entity, countOnly: Bool = false, narrowedBy expression: QueryExpression? = nil)
        -> any ItemPages
    {
        let table = tables.table(of: entity)
        let segments = options.concurrency
        return SegmentedScan(segments: segments) { [self] segment, startKey in
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
