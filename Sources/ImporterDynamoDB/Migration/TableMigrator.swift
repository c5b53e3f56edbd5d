import Foundation
import ImporterAWS
import ImporterCore
import Synchronization

/// Migrates one entity's table item by item: a parallel Scan (a task per segment, pages of
/// `pageSize` items), each page migrated and written item by item. Every write is conditional
/// on the item's version being the one read, so an item changed meanwhile is read again and
/// migrated again, never overwritten; each item is written whole by one PutItem, so none is
/// ever half migrated.
final class TableMigrator: Sendable {
    struct Settings: Sendable {
        var segments = 4
        var pageSize = 100
        /// Items written at once within a segment's page.
        var writers = 2
        /// Delete the items that cannot be migrated instead of stopping.
        var allowRejects = false
    }

    /// What the segments found so far.
    private struct Tally {
        var items = 0
        var failures: [MigrationFailure] = []
        var stopped = false
    }

    let client: DynamoDBClient
    let migration: ItemMigration
    let settings: Settings
    let retries: RetryCounter
    private let tally = Mutex(Tally())

    init(client: DynamoDBClient, migration: ItemMigration, settings: Settings, retries: RetryCounter) {
        self.client = client
        self.migration = migration
        self.settings = settings
        self.retries = retries
    }

    /// Reads every item and migrates it in memory, writing nothing: the items read and those
    /// that cannot be migrated.
    func check() async throws -> (items: Int, failures: [MigrationFailure]) {
        _ = try await concurrentMap(settings.segments, limit: settings.segments) { [self] segment in
            var next: DynamoItem?
            repeat {
                let page = try await scan(segment, of: settings.segments, after: next, limit: nil)
                let failed = page.items.compactMap { raw -> MigrationFailure? in
                    if case .failed(let failure) = migration.migrate(raw) { return failure }
                    return nil
                }
                record(page.items.count, failed)
                next = page.next
            } while next != nil
        }
        return tally.withLock { ($0.items, $0.failures) }
    }

    /// Migrates the table from where `progress` stands. Returns the items that could not be
    /// migrated: deleted with `allowRejects`; else the migration stopped before writing their
    /// page (the checkpoint stands before it) and `stopped` is true.
    func run(_ progress: MigrationProgress) async throws -> (failures: [MigrationFailure], stopped: Bool) {
        let name = migration.source.name
        let saved = progress.segments(of: name, count: settings.segments)
        _ = try await concurrentMap(saved.count, limit: saved.count) { [self] index in
            var segment = saved[index]
            if !segment.inFlight.isEmpty {  // a page whose writes may not all have landed
                guard try await write(try segment.inFlight.map(JSONObjectText.object)) else { return }
                segment.inFlight = []
                try progress.save(segment, at: index, of: name, count: saved.count)
            }
            while !segment.finished && !isStopped {
                let page = try await scan(
                    index, of: saved.count, after: try segment.next.map(JSONObjectText.object), limit: settings.pageSize
                )
                var next = segment
                next.inFlight = page.items.map(JSONObjectText.text)
                next.next = page.next.map(JSONObjectText.text)
                next.finished = page.next == nil
                guard
                    try await write(
                        page.items, beforeWriting: { try progress.save(next, at: index, of: name, count: saved.count) })
                else { return }
                segment = next
                segment.inFlight = []
                try progress.save(segment, at: index, of: name, count: saved.count)
            }
        }
        return tally.withLock { ($0.failures, $0.stopped) }
    }

    private var isStopped: Bool { tally.withLock { $0.stopped } }

    private func record(_ count: Int, _ failed: [MigrationFailure]) {
        tally.withLock { tally in
            tally.items += count
            tally.failures += failed
            if !failed.isEmpty && !settings.allowRejects { tally.stopped = true }
        }
    }

    // MARK: Reading

    /// One page of a segment; at most `limit` items (nil: as many as DynamoDB gives, up to 1 MB).
    private func scan(_ segment: Int, of segments: Int, after startKey: DynamoItem?, limit: Int?) async throws -> (
        items: [DynamoItem], next: DynamoItem?
    ) {
        var request = DynamoDB.Scan(tableName: migration.sourceTable)
        request.limit = limit
        if segments > 1 {
            request.segment = segment
            request.totalSegments = segments
        }
        request.exclusiveStartKey = startKey
        let page = try await send(request)
        return (page.items ?? [], page.lastEvaluatedKey)
    }

    /// The stored item now, or nil if it is gone.
    private func reread(_ raw: DynamoItem) async throws -> DynamoItem? {
        try await send(DynamoDB.GetItem(tableName: migration.sourceTable, key: migration.key(of: raw))).item
    }

    private func send<Request: DynamoDB.Operation>(_ request: Request) async throws -> Request.Response {
        do {
            return try await client.send(request, retries: retries, entity: migration.source.name)
        } catch let error as DynamoDBError {
            throw StoreError.dynamoDB(error, at: migration.sourceTable, Request.name, entity: migration.source.name)
        }
    }

    // MARK: Writing

    /// Migrates and writes one page of stored items, calling `beforeWriting` first. False when
    /// an item cannot be migrated and `allowRejects` is off: then nothing of the page is written
    /// and the migration stops. Failures are recorded (with `allowRejects`, the items are deleted).
    private func write(_ page: [DynamoItem], beforeWriting: () throws -> Void = {}) async throws -> Bool {
        let outcomes = page.map { ($0, migration.migrate($0)) }
        let refused = outcomes.compactMap { if case .failed(let failure) = $0.1 { failure } else { nil } }
        if !refused.isEmpty && !settings.allowRejects {
            record(0, refused)
            return false
        }
        try beforeWriting()
        let written = try await concurrentMap(outcomes.count, limit: settings.writers) {
            [self] index -> MigrationFailure? in
            let (raw, outcome) = outcomes[index]
            switch outcome {
            case .unchanged: return nil
            case .migrated(let item, let version):
                return try await send(raw, requests(for: raw, migrated: item, version: version))
            case .failed:
                _ = try await send(raw, [delete(raw)])  // already listed
                return nil
            }
        }
        let failed = refused + written.compactMap { $0 }
        record(page.count, failed)
        return failed.isEmpty || settings.allowRejects
    }

    /// One write, conditional on the item being as read.
    private enum Request: Sendable {
        case put(DynamoDB.PutItem)
        case delete(DynamoDB.DeleteItem)
    }

    /// Sends one item's requests in order until they all land, reading the item again and
    /// migrating it again whenever a condition fails. Returns why the item cannot be migrated,
    /// if it cannot (with `allowRejects` it is then deleted).
    private func send(_ raw: DynamoItem, _ requests: [Request]) async throws -> MigrationFailure? {
        var raw = raw, requests = requests
        var failure: MigrationFailure?
        rounds: for _ in 0..<EntityWriter.maxRounds {
            for request in requests {
                do {
                    switch request {
                    case .put(let put): _ = try await client.send(put, retries: retries, entity: migration.source.name)
                    case .delete(let delete):
                        _ = try await client.send(delete, retries: retries, entity: migration.source.name)
                    }
                } catch let error as DynamoDBError where error.code == .conditionalCheckFailed {
                    guard let now = try await reread(raw) else { return failure }  // deleted (or moved) meanwhile
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
                } catch let error as DynamoDBError where error.code == .validation {
                    failure = migration.refused(raw, error.message)
                    guard settings.allowRejects else { return failure }
                    requests = [delete(raw)]
                    continue rounds
                } catch let error as DynamoDBError {
                    throw StoreError.dynamoDB(
                        error, at: migration.sourceTable, error.operation, entity: migration.source.name)
                }
            }
            return failure
        }
        throw StoreError(
            .conflictingWriter,
            "\(migration.sourceTable): an item changed \(EntityWriter.maxRounds) times while it was being migrated; run importer migrate again",
            entity: migration.source.name, operation: "migrate")
    }

    /// In place: a Put on the stored version. Into another table: a Put there, then a Delete
    /// here, each also true when already done, so that a page is sent again safely after an
    /// interruption (between the two, the item is whole in both tables).
    private func requests(for raw: DynamoItem, migrated item: DynamoItem, version: Int64?) -> [Request] {
        let versionCondition = version == nil ? "attribute_not_exists(#v)" : "#v = :v"
        let values: DynamoItem? = version.map { [":v": .n(String($0))] }
        let versionName = ["#v": migration.source.versionAttribute]
        guard migration.sourceTable != migration.targetTable else {
            let condition = DynamoDB.Condition(versionCondition, names: versionName, values: values)
            return [.put(DynamoDB.PutItem(tableName: migration.targetTable, item: item, condition: condition))]
        }
        let condition = DynamoDB.Condition(
            "attribute_not_exists(#k) OR \(versionCondition)",
            names: versionName.merging(["#k": migration.source.hashKey]) { $1 }, values: values)
        return [
            .put(DynamoDB.PutItem(tableName: migration.targetTable, item: item, condition: condition)),
            .delete(
                DynamoDB.DeleteItem(tableName: migration.sourceTable, key: migration.key(of: raw), condition: condition)
            ),
        ]
    }

    /// Deletes an item that cannot be migrated (`--allow-rejects`), on the stored version.
    private func delete(_ raw: DynamoItem) -> Request {
        let names = ["#v": migration.source.versionAttribute]
        let condition =
            if let version = raw[migration.source.versionAttribute] {
                DynamoDB.Condition("#v = :v", names: names, values: [":v": version])
            } else {
                DynamoDB.Condition("attribute_not_exists(#v)", names: names)
            }
        return .delete(
            DynamoDB.DeleteItem(tableName: migration.sourceTable, key: migration.key(of: raw), condition: condition))
    }
}
