import Foundation
import ImporterCore

/// Migrates one entity's table item by item: a parallel Scan (a thread per segment, pages of
/// `pageSize` items), each page migrated and written item by item. Every write is conditional
/// on the item's version being the one read, so an item changed meanwhile is read again and
/// migrated again, never overwritten; each item is written whole by one PutItem, so none is
/// ever half migrated.
final class TableMigrator: @unchecked Sendable {
    struct Settings: Sendable {
        var segments = 4
        var pageSize = 100
        /// Items written at once within a segment's page.
        var writers = 2
        /// Delete the items that cannot be migrated instead of stopping.
        var allowRejects = false
    }

    let client: DynamoDBClient
    let migration: ItemMigration
    let settings: Settings
    let retries: RetryCounter
    private let lock = NSLock()
    private var items = 0
    private var failures: [MigrationFailure] = []
    private var stopped = false

    init(client: DynamoDBClient, migration: ItemMigration, settings: Settings, retries: RetryCounter) {
        self.client = client
        self.migration = migration
        self.settings = settings
        self.retries = retries
    }

    /// Reads every item and migrates it in memory, writing nothing: the items read and those
    /// that cannot be migrated.
    func check() throws -> (items: Int, failures: [MigrationFailure]) {
        try parallelForEach(settings.segments, workers: settings.segments) { [self] segment in
            var next: [String: Any]?
            repeat {
                let page = try scan(segment, of: settings.segments, after: next, limit: nil)
                let failed = page.items.compactMap { raw -> MigrationFailure? in
                    if case .failed(let failure) = migration.migrate(raw) { return failure }
                    return nil
                }
                record(page.items.count, failed)
                next = page.next
            } while next != nil
        }
        return (items, failures)
    }

    /// Migrates the table from where `progress` stands. Returns the items that could not be
    /// migrated: deleted with `allowRejects`; else the migration stopped before writing their
    /// page (the checkpoint stands before it) and `stopped` is true.
    func run(_ progress: MigrationProgress) throws -> (failures: [MigrationFailure], stopped: Bool) {
        let name = migration.source.name
        let saved = progress.segments(of: name, count: settings.segments)
        try parallelForEach(saved.count, workers: saved.count) { [self] index in
            var segment = saved[index]
            if !segment.inFlight.isEmpty {  // a page whose writes may not all have landed
                guard try write(try segment.inFlight.map(JSONObjectText.object)) else { return }
                segment.inFlight = []
                try progress.save(segment, at: index, of: name, count: saved.count)
            }
            while !segment.finished && !isStopped {
                let page = try scan(index, of: saved.count, after: try segment.next.map(JSONObjectText.object), limit: settings.pageSize)
                var next = segment
                next.inFlight = page.items.map(JSONObjectText.text)
                next.next = page.next.map(JSONObjectText.text)
                next.finished = page.next == nil
                guard try write(page.items, beforeWriting: { try progress.save(next, at: index, of: name, count: saved.count) }) else { return }
                segment = next
                segment.inFlight = []
                try progress.save(segment, at: index, of: name, count: saved.count)
            }
        }
        return lock.withLock { (failures, stopped) }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func record(_ count: Int, _ failed: [MigrationFailure]) {
        lock.withLock {
            items += count
            failures += failed
            if !failed.isEmpty && !settings.allowRejects { stopped = true }
        }
    }

    // MARK: Reading

    /// One page of a segment; at most `limit` items (nil: as many as DynamoDB gives, up to 1 MB).
    private func scan(_ segment: Int, of segments: Int, after startKey: [String: Any]?, limit: Int?) throws -> (items: [[String: Any]], next: [String: Any]?) {
        var request: [String: Any] = ["TableName": migration.sourceTable, "ConsistentRead": true]
        if let limit { request["Limit"] = limit }
        if segments > 1 {
            request["Segment"] = segment
            request["TotalSegments"] = segments
        }
        if let startKey { request["ExclusiveStartKey"] = startKey }
        let page = try send("Scan", json(request))
        return (page["Items"] as? [[String: Any]] ?? [], page["LastEvaluatedKey"] as? [String: Any])
    }

    /// The stored item now, or nil if it is gone.
    private func reread(_ raw: [String: Any]) throws -> [String: Any]? {
        let response = try send("GetItem", json(["TableName": migration.sourceTable, "Key": migration.key(of: raw), "ConsistentRead": true]))
        return response["Item"] as? [String: Any]
    }

    private func send(_ operation: String, _ body: [UInt8]) throws -> [String: Any] {
        do {
            return try client.send(operation, body, retries: retries, entity: migration.source.name)
        } catch let error as DynamoDBError {
            throw StoreError("\(migration.sourceTable): \(operation): \(error)")
        }
    }

    // MARK: Writing

    /// Migrates and writes one page of stored items, calling `beforeWriting` first. False when
    /// an item cannot be migrated and `allowRejects` is off: then nothing of the page is written
    /// and the migration stops. Failures are recorded (with `allowRejects`, the items are deleted).
    private func write(_ page: [[String: Any]], beforeWriting: () throws -> Void = {}) throws -> Bool {
        let outcomes = page.map { ($0, migration.migrate($0)) }
        let failed = FailureList()
        for case (_, .failed(let failure)) in outcomes { failed.add(failure) }
        if !failed.all.isEmpty && !settings.allowRejects {
            record(0, failed.all)
            return false
        }
        try beforeWriting()
        let shared = SharedOutcomes(outcomes: outcomes)  // read only, by the writers
        try parallelForEach(outcomes.count, workers: settings.writers) { [self] index in
            let (raw, outcome) = shared.outcomes[index]
            switch outcome {
            case .unchanged: return
            case .migrated(let item, let version):
                if let failure = try send(raw, requests(for: raw, migrated: item, version: version)) { failed.add(failure) }
            case .failed:
                _ = try send(raw, [delete(raw)])  // already listed
            }
        }
        record(page.count, failed.all)
        return failed.all.isEmpty || settings.allowRejects
    }

    /// One write: a PutItem or DeleteItem body, conditional on the item being as read.
    private struct Request {
        let operation: String
        let body: [String: Any]
    }

    /// Sends one item's requests in order until they all land, reading the item again and
    /// migrating it again whenever a condition fails. Returns why the item cannot be migrated,
    /// if it cannot (with `allowRejects` it is then deleted).
    private func send(_ raw: [String: Any], _ requests: [Request]) throws -> MigrationFailure? {
        var raw = raw, requests = requests
        var failure: MigrationFailure?
        rounds: for _ in 0..<EntityWriter.maxRounds {
            for request in requests {
                do {
                    _ = try client.send(request.operation, json(request.body), retries: retries, entity: migration.source.name)
                } catch let error as DynamoDBError where error.type == "ConditionalCheckFailedException" {
                    guard let now = try reread(raw) else { return failure }  // deleted (or moved) meanwhile
                    raw = now
                    switch migration.migrate(now) {
                    case .unchanged: return failure
                    case .migrated(let item, let version):
                        requests = self.requests(for: now, migrated: item, version: version)
                    case .failed(let reason):
                        failure = reason
                        guard settings.allowRejects else { return failure }
                        requests = [delete(now)]
                    }
                    continue rounds
                } catch let error as DynamoDBError where error.type == "ValidationException" {
                    failure = migration.refused(raw, error.message)
                    guard settings.allowRejects else { return failure }
                    requests = [delete(raw)]
                    continue rounds
                } catch let error as DynamoDBError {
                    throw StoreError("\(migration.sourceTable): \(request.operation): \(error)")
                }
            }
            return failure
        }
        throw StoreError("\(migration.sourceTable): an item changed \(EntityWriter.maxRounds) times while it was being migrated; run importer migrate again")
    }

    /// In place: a Put on the stored version. Into another table: a Put there, then a Delete
    /// here, each also true when already done, so that a page is sent again safely after an
    /// interruption (between the two, the item is whole in both tables).
    private func requests(for raw: [String: Any], migrated item: [String: Any], version: Int64?) -> [Request] {
        let versionCondition = version == nil ? "attribute_not_exists(#v)" : "#v = :v"
        var put: [String: Any] = ["TableName": migration.targetTable, "Item": item]
        var names: [String: Any] = ["#v": migration.source.versionAttribute]
        if let version { put["ExpressionAttributeValues"] = [":v": ["N": String(version)]] }
        guard migration.sourceTable != migration.targetTable else {
            put["ConditionExpression"] = versionCondition
            put["ExpressionAttributeNames"] = names
            return [Request(operation: "PutItem", body: put)]
        }
        names["#k"] = migration.source.hashKey
        put["ConditionExpression"] = "attribute_not_exists(#k) OR \(versionCondition)"
        put["ExpressionAttributeNames"] = names
        var delete = put
        delete["Item"] = nil
        delete["TableName"] = migration.sourceTable
        delete["Key"] = migration.key(of: raw)
        return [Request(operation: "PutItem", body: put), Request(operation: "DeleteItem", body: delete)]
    }

    /// Deletes an item that cannot be migrated (`--allow-rejects`), on the stored version.
    private func delete(_ raw: [String: Any]) -> Request {
        var delete: [String: Any] = ["TableName": migration.sourceTable, "Key": migration.key(of: raw),
                                     "ExpressionAttributeNames": ["#v": migration.source.versionAttribute]]
        if let version = raw[migration.source.versionAttribute] {
            delete["ConditionExpression"] = "#v = :v"
            delete["ExpressionAttributeValues"] = [":v": version]
        } else {
            delete["ConditionExpression"] = "attribute_not_exists(#v)"
        }
        return Request(operation: "DeleteItem", body: delete)
    }
}

/// A page's outcomes, read by several writer threads (JSON objects are not `Sendable`).
private struct SharedOutcomes: @unchecked Sendable {
    let outcomes: [([String: Any], ItemMigration.Outcome)]
}

/// Failures gathered from several threads.
private final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [MigrationFailure] = []

    func add(_ failure: MigrationFailure) { lock.withLock { failures.append(failure) } }

    var all: [MigrationFailure] { lock.withLock { failures } }
}
