import Foundation
import ImporterCore

/// The remote store: a DynamoDB table per entity (AWS itself or any endpoint speaking
/// DynamoDB's JSON protocol), written with conditional transactions so SPEC §6's version rules
/// hold on the server, `concurrency` transactions in flight. Checkpoints go to a file
/// (`<report dir>/checkpoint.json`): a write is durable as soon as DynamoDB answers, and a
/// resumed run's replays are idempotent by the version rules.
public final class DynamoDBStore: Store, @unchecked Sendable {
    /// How the store writes; from the pipeline's destination and write sections.
    public struct Options: Sendable {
        public var tablePrefix = ""
        public var createTables = false
        public var dates: DateEncoding = .iso8601
        /// Writes per TransactWriteItems (at most 100).
        public var transactionSize = 25
        /// false: one conditional PutItem per item, and BatchWriteItem where no condition is
        /// needed (SPEC §6: `mode: replace`, or a table empty when the run began).
        public var transactional = true
        /// Transactions (or batches) in flight.
        public var concurrency = 4
        /// Where checkpoints are kept; nil keeps none.
        public var checkpointFile: String?
        /// The pipeline file, for configuration errors.
        public var pipelineFile = ""

        public init() {}
    }

    public let client: DynamoDBClient
    public let options: Options
    let tables: DynamoDBTables
    let retries = RetryCounter()
    private var codings: [String: DynamoItemCoding] = [:]
    /// Entities whose table was empty when the run began (`transactional: false` only).
    private var emptyAtStart: Set<String> = []
    private var pendingCheckpoint: Checkpoint?
    /// The checkpoint's write rejections so far (read from its file once, then kept here).
    private var checkpointRejections: [Checkpoint.WriteRejection]?
    /// Keys found by `contains`, per entity, so references to the same parent ask once.
    private let knownKeys = KnownKeys()

    public init(client: DynamoDBClient, options: Options) {
        self.client = client
        self.options = options
        tables = DynamoDBTables(client: client, prefix: options.tablePrefix, createMissing: options.createTables,
                                file: options.pipelineFile)
    }

    public func close() {}

    /// The table an entity's items are in.
    public func table(of entity: Entity) -> String { tables.table(of: entity) }

    public func prepare(for model: Model) throws {
        makeCodings(model)
        try tables.prepare(model)
    }

    /// Makes the store ready to read `model`'s tables without creating or writing anything (a
    /// dry run, an export). False when a table does not exist yet; `ConfigurationError` when the
    /// meta table records another version or checksum of the model.
    public func prepareToRead(_ model: Model) throws -> Bool {
        makeCodings(model)
        guard try tables.allExist(model) else { return false }
        _ = try tables.checkRecordedModel(model)
        return true
    }

    private func makeCodings(_ model: Model) {
        for entity in model.entities { codings[entity.name] = DynamoItemCoding(entity: entity, dates: options.dates) }
    }

    private func coding(_ entity: Entity) throws -> DynamoItemCoding {
        guard let coding = codings[entity.name] else { throw StoreError("entity \(entity.name) was not prepared") }
        return coding
    }

    // MARK: Runs and batches

    public var preferredCommitSize: Int? { options.transactionSize * options.concurrency * 8 }

    public func takeRetries(of entity: Entity) -> Int { retries.take(for: entity.name) }

    public func beginRun(atomic: Bool) throws {
        guard !atomic else { throw StoreError("write.atomic is for the SQLite store; DynamoDB has no run-long transaction") }
        emptyAtStart = []
        guard !options.transactional else { return }
        for (name, coding) in codings {
            let page = try client.send("Scan", json(["TableName": tables.table(of: coding.entity), "Limit": 1, "ConsistentRead": true]))
            if (page["Count"] as? Int ?? 0) == 0 && (page["LastEvaluatedKey"] == nil) { emptyAtStart.insert(name) }
        }
    }

    public func finishRun(commit: Bool) throws {
        emptyAtStart = []
    }

    public func commit() throws {
        guard let checkpoint = pendingCheckpoint, let path = options.checkpointFile else { return }
        pendingCheckpoint = nil
        try CheckpointFile.save(checkpoint, to: path)
    }

    // MARK: Writing

    public func write(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) throws -> [WriteOutcome] {
        let empty = emptyAtStart.contains(entity.name)
        let method: EntityWriter.Method = options.transactional ? .transaction
            : (rules.mode == .replace || empty ? .batch : .eachConditional)
        let writer = EntityWriter(
            client: client, entity: entity, table: tables.table(of: entity), coding: try coding(entity), rules: rules,
            retries: retries, method: method, knownEmpty: method == .batch && empty)
        // A transaction holds a group; otherwise a group is what one BatchGetItem reads.
        let size = method == .transaction ? max(1, min(options.transactionSize, 100)) : 100
        let groups = stride(from: 0, to: records.count, by: size).map { $0..<min($0 + size, records.count) }
        let results = GroupResults(count: groups.count)
        try parallelForEach(groups.count, workers: options.concurrency) { index in
            results.set(index, try writer.write(records[groups[index]]))
        }
        return results.all
    }

    public func delete(_ key: Value, expectedVersion: Int64, of entity: Entity) throws -> Bool {
        let coding = try coding(entity)
        let body = "{\"TableName\":\(JSONText.quote(tables.table(of: entity))),\"Key\":\(coding.encodeKey(key)),"
            + "\"ConditionExpression\":\"#v = :v\",\"ExpressionAttributeNames\":{\"#v\":\(JSONText.quote(entity.versionAttribute))},"
            + "\"ExpressionAttributeValues\":{\":v\":{\"N\":\"\(expectedVersion)\"}}}"
        do {
            _ = try client.send("DeleteItem", Array(body.utf8), retries: retries, entity: entity.name)
            return true
        } catch let error as DynamoDBError where error.type == "ConditionalCheckFailedException" {
            return false
        } catch let error as DynamoDBError {
            throw StoreError("\(tables.table(of: entity)): \(error)")
        }
    }

    // MARK: Reading

    public func contains(_ key: Value, in entity: Entity) throws -> Bool {
        if knownKeys.contains(key, entity.name) { return true }
        let found = try fetch(key, of: entity, projection: true) != nil
        if found { knownKeys.insert(key, entity.name) }
        return found
    }

    public func fetch(_ key: Value, of entity: Entity) throws -> [Value]? {
        try fetch(key, of: entity, projection: false)
    }

    private func fetch(_ key: Value, of entity: Entity, projection: Bool) throws -> [Value]? {
        let coding = try coding(entity)
        var body = "{\"TableName\":\(JSONText.quote(tables.table(of: entity))),\"Key\":\(coding.encodeKey(key)),\"ConsistentRead\":true"
        if projection { body += ",\"ProjectionExpression\":\"#k\",\"ExpressionAttributeNames\":{\"#k\":\(JSONText.quote(entity.hashKey))}" }
        body += "}"
        let response = try send("GetItem", body, entity)
        guard let item = response["Item"] as? [String: Any] else { return nil }
        return projection ? [] : try coding.decode(item)
    }

    public func count(of entity: Entity) throws -> Int {
        var total = 0
        try paginate(entity, countOnly: true) { page in total += page["Count"] as? Int ?? 0 }
        return total
    }

    public func scan(_ entity: Entity, _ body: ([Value]) throws -> Void) throws {
        let coding = try coding(entity)
        try paginate(entity, countOnly: false) { page in
            for item in page["Items"] as? [[String: Any]] ?? [] { try body(try coding.decode(item)) }
        }
    }

    /// Calls `body` with every page of a consistent Scan of the entity's table: `concurrency`
    /// segments fetched in parallel, pages handed over in a fixed order (`SegmentedScan`).
    private func paginate(_ entity: Entity, countOnly: Bool, _ body: ([String: Any]) throws -> Void) throws {
        let table = tables.table(of: entity)
        let segments = options.concurrency
        let scan = SegmentedScan(segments: segments) { [self] segment, startKey in
            var request: [String: Any] = ["TableName": table, "ConsistentRead": true]
            if segments > 1 {
                request["Segment"] = segment
                request["TotalSegments"] = segments
            }
            if countOnly { request["Select"] = "COUNT" }
            if let startKey { request["ExclusiveStartKey"] = startKey }
            return try send("Scan", String(decoding: json(request), as: UTF8.self), entity)
        }
        try scan.forEachPage(body)
    }

    private func send(_ operation: String, _ body: String, _ entity: Entity) throws -> [String: Any] {
        do {
            return try client.send(operation, Array(body.utf8), retries: retries, entity: entity.name)
        } catch let error as DynamoDBError {
            throw StoreError("\(tables.table(of: entity)): \(error)")
        }
    }

    // MARK: Checkpoint

    public func saveCheckpoint(_ checkpoint: Checkpoint, adding rejections: [Checkpoint.WriteRejection]) throws {
        guard let path = options.checkpointFile else { return }
        let all = try (checkpointRejections ?? CheckpointFile.load(from: path)?.rejections ?? []) + rejections
        checkpointRejections = all
        var next = checkpoint
        next.rejections = all
        pendingCheckpoint = next
    }

    public func loadCheckpoint() throws -> Checkpoint? {
        guard let path = options.checkpointFile else { return nil }
        return try CheckpointFile.load(from: path)
    }

    public func clearCheckpoint() throws {
        pendingCheckpoint = nil
        checkpointRejections = []
        guard let path = options.checkpointFile, FileManager.default.fileExists(atPath: path) else { return }
        try FileManager.default.removeItem(atPath: path)
    }
}

/// The outcomes of a write's groups, filled in from several threads.
private final class GroupResults: @unchecked Sendable {
    private let lock = NSLock()
    private var groups: [[WriteOutcome]]

    init(count: Int) { groups = Array(repeating: [], count: count) }

    func set(_ index: Int, _ outcomes: [WriteOutcome]) {
        lock.lock()
        groups[index] = outcomes
        lock.unlock()
    }

    var all: [WriteOutcome] { groups.flatMap { $0 } }
}

/// Keys known to be stored, per entity, shared between threads.
private final class KnownKeys: @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [String: Set<Value>] = [:]

    func contains(_ key: Value, _ entity: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return keys[entity]?.contains(key) ?? false
    }

    func insert(_ key: Value, _ entity: String) {
        lock.lock()
        keys[entity, default: []].insert(key)
        lock.unlock()
    }
}
