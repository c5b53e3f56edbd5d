import Foundation
import ImporterAWS
import ImporterCore

/// Writes one group of records of an entity (one transaction's worth) with the version rules (docs/writes.md)
/// holding on the server: the core's `VersionRules` decide against the stored items, and every
/// write is conditional on the item still being as read (`attribute_not_exists(<key>)` for an
/// insert, `<version> = :expected` for an update). A write whose condition fails is re-read and
/// decided again, so a concurrent writer's change is met as a conflict, never overwritten.
struct EntityWriter: Sendable {
    let client: DynamoDBClient
    let entity: Entity
    let table: String
    let coding: DynamoItemCoding
    let rules: VersionRules
    let retries: RetryCounter
    /// How the writes are sent.
    let method: Method
    /// The table was empty when the run started and writes are unconditional: nothing to read.
    let knownEmpty: Bool
    /// Whether groups read their stored items first, shared by the entity's writers of a run.
    let guess: StoredItemsGuess

    enum Method: Sendable {
        /// Conditional writes in one TransactWriteItems per group (`transactional: true`).
        case transaction
        /// One conditional PutItem per write (`transactional: false` where a condition is needed).
        case eachConditional
        /// BatchWriteItem, no conditions (`transactional: false` with `mode: replace`, or into a
        /// table that was empty when the run started).
        case batch
    }

    /// DynamoDB's item size limit.
    static let maxItemBytes = 400 * 1024
    /// Items a BatchWriteItem and a TransactWriteItems may hold, and keys a BatchGetItem may read.
    static let batchWriteLimit = 25, transactWriteLimit = 100, batchGetLimit = 100
    /// Rounds of decide → write → condition failed → re-read before a record is given up.
    static let maxRounds = 10

    /// One write to send.
    struct Planned: Sendable {
        /// The record's position in the group.
        let record: Int
        let item: [Value]
        /// nil: an insert (the key must not exist); else the version the item must still have.
        let expectedVersion: Int64?
        let outcome: WriteOutcome
        /// The item's size as DynamoDB counts it (`DynamoItemCoding.itemSize`).
        let size: Int
    }

    /// What became of a planned write.
    enum Sent: Sendable {
        case done
        /// Its condition failed: the item changed since it was read.
        case conditionFailed
        /// Not applied because another write of its transaction failed; send it again.
        case notApplied
        /// The server refused the item itself (a validation error).
        case refused(String)
    }

    /// Records a `write` call should take at most: a transaction's writes (`transactionSize`);
    /// into a table known empty, what one BatchWriteItem holds (no read, so small groups keep
    /// every request slot busy); else what one BatchGetItem reads.
    func groupSize(transactionSize: Int) -> Int {
        switch method {
        case .transaction: max(1, min(transactionSize, Self.transactWriteLimit))
        case .batch where knownEmpty: Self.batchWriteLimit
        default: Self.batchGetLimit
        }
    }

    /// Writes sent before a `send` failed, and how many after them were in the request that
    /// failed (their fate is unknown); the rest were not sent.
    struct SendFailure: Error {
        let sent: [Sent]
        let unknown: Int
        let underlying: any Error
    }

    /// One outcome per record, in order. A failure part-way throws `PartialWriteError`: a
    /// write DynamoDB acknowledged stays written, and the report counts it so.
    func write(_ records: ArraySlice<PreparedRecord>) async throws -> [WriteOutcome] {
        var outcomes = [WriteOutcome?](repeating: nil, count: records.count)
        var unknown: Set<Int> = []
        do {
            return try await write(records, &outcomes, &unknown)
        } catch {
            let fates = outcomes.indices.map { index -> PartialWriteError.Fate in
                if let outcome = outcomes[index] { return .decided(outcome) }
                return unknown.contains(index) ? .unknown : .notSent
            }
            throw PartialWriteError(fates: fates, underlying: (error as? SendFailure)?.underlying ?? error)
        }
    }

    private func write(
        _ records: ArraySlice<PreparedRecord>, _ outcomes: inout [WriteOutcome?], _ unknown: inout Set<Int>
    ) async throws -> [WriteOutcome] {
        let incoming = records.map(\.values)
        let keys = incoming.map { entity.key(of: $0) }
        var stored = try await storedItems(incoming, keys)
        var pending = Array(incoming.indices)
        for _ in 0..<Self.maxRounds where !pending.isEmpty {
            let planned = plan(pending, incoming, stored, &outcomes)
            pending = []
            guard !planned.isEmpty else { break }
            let results: [Sent]
            do {
                results = try await send(planned)
            } catch let failure as SendFailure {
                for (write, result) in zip(planned, failure.sent) {
                    if case .done = result { outcomes[write.record] = write.outcome }
                }
                for write in planned.dropFirst(failure.sent.count).prefix(failure.unknown) {
                    unknown.insert(write.record)
                }
                throw failure
            } catch {
                for write in planned { unknown.insert(write.record) }
                throw error
            }
            var changed: [Planned] = []
            for (write, result) in zip(planned, results) {
                switch result {
                case .done: outcomes[write.record] = write.outcome
                case .notApplied: pending.append(write.record)
                case .conditionFailed: changed.append(write)
                case .refused(let message):
                    outcomes[write.record] = WriteOutcome(
                        .rejected(
                            Rejection(
                                stage: .write, reason: .constraint,
                                "DynamoDB refused the item: \(message)")))
                }
            }
            guard !changed.isEmpty else { continue }
            guess.record(found: true)
            let fresh = try await read(changed.map { keys[$0.record] })
            for (write, item) in zip(changed, fresh) {
                // Exactly what was sent: an earlier attempt whose response was lost did apply it.
                if item == write.item {
                    outcomes[write.record] = write.outcome
                } else {
                    stored[write.record] = item
                    pending.append(write.record)
                }
            }
        }
        for index in pending {
            outcomes[index] = WriteOutcome(
                .rejected(
                    Rejection(
                        stage: .write, reason: .conflict,
                        "\(entity.name) '\(keys[index])' was changed by another writer each of \(Self.maxRounds) times it was read; run again"
                    )), conflict: true)
        }
        return outcomes.map { $0! }
    }

    /// The stored items of a group, read first (`guess`), or taken to be absent, except for the
    /// records that would not be inserted were nothing stored: those are read.
    private func storedItems(_ incoming: [[Value]], _ keys: [Value]) async throws -> [[Value]?] {
        var stored = [[Value]?](repeating: nil, count: incoming.count)
        if knownEmpty { return stored }
        guard !guess.readsFirst, method != .batch else {
            stored = try await read(keys)
            guess.record(found: stored.contains { $0 != nil })
            return stored
        }
        let unsure = incoming.indices.filter { rules.newItemVersion(incoming[$0]) == nil }
        guard !unsure.isEmpty else { return stored }
        for (index, item) in zip(unsure, try await read(unsure.map { keys[$0] })) { stored[index] = item }
        if stored.contains(where: { $0 != nil }) { guess.record(found: true) }
        return stored
    }

    /// Decides each pending record against its stored item: the writes to send, and the
    /// outcomes of the records that need none (or whose item is too large) in `outcomes`.
    private func plan(_ pending: [Int], _ incoming: [[Value]], _ stored: [[Value]?], _ outcomes: inout [WriteOutcome?])
        -> [Planned]
    {
        var planned: [Planned] = []
        for index in pending {
            let (decision, conflict) = rules.decide(incoming[index], stored: stored[index])
            switch decision {
            case .insert(let item):
                planned.append(
                    Planned(
                        record: index, item: item, expectedVersion: nil,
                        outcome: WriteOutcome(.inserted, conflict: conflict), size: coding.itemSize(item)))
            case .update(let item, let expectedVersion):
                planned.append(
                    Planned(
                        record: index, item: item, expectedVersion: expectedVersion,
                        outcome: WriteOutcome(.updated, conflict: conflict), size: coding.itemSize(item)))
            case .unchanged:
                outcomes[index] = WriteOutcome(.unchanged, conflict: conflict)
            case .rolledBack:
                outcomes[index] = WriteOutcome(.rolledBack, conflict: conflict)
            case .reject(let reason, let message):
                outcomes[index] = WriteOutcome(
                    .rejected(Rejection(stage: .write, reason: reason, message)), conflict: conflict)
            }
        }
        return planned.filter { write in
            guard write.size > Self.maxItemBytes else { return true }
            outcomes[write.record] = WriteOutcome(.rejected(Self.tooLarge(write.size)))
            return false
        }
    }

    /// The rejection of an item of `size` bytes, over DynamoDB's limit.
    static func tooLarge(_ size: Int) -> Rejection {
        Rejection(
            stage: .write, reason: .size,
            "the item is \(size) bytes as DynamoDB counts them; items are limited to \(maxItemBytes) bytes (400 KB), so shorten its longest attributes"
        )
    }

    /// Sends the planned writes by the writer's method.
    private func send(_ planned: [Planned]) async throws -> [Sent] {
        switch method {
        case .transaction: return try await sendTransaction(planned)
        case .batch: return try await sendBatch(planned)
        case .eachConditional:
            var sent: [Sent] = []
            for write in planned {
                do {
                    sent.append(try await sendConditionalPut(write))
                } catch {
                    throw SendFailure(sent: sent, unknown: 1, underlying: error)
                }
            }
            return sent
        }
    }

    // MARK: Reading

    /// The stored items with `keys` (nil where none), by BatchGetItem with consistent reads.
    func read(_ keys: [Value]) async throws -> [[Value]?] {
        var found: [Value: [Value]] = [:]
        for start in stride(from: 0, to: keys.count, by: Self.batchGetLimit) {
            var request = DynamoDB.BatchGetItem(requestItems: [
                table: DynamoDB.KeysAndAttributes(
                    keys: keys[start..<min(start + Self.batchGetLimit, keys.count)].map(coding.key))
            ])
            var attempt = 1
            while true {
                let response = try await client.send(request, retries: retries, entity: entity.name)
                let items = response.responses?[table] ?? []
                for item in items {
                    let values = try coding.decode(item)
                    found[entity.key(of: values)] = values
                }
                guard let unprocessed = response.unprocessedKeys, !unprocessed.isEmpty else { break }
                try await pauseForUnprocessed(&attempt, "BatchGetItem", progressed: !items.isEmpty)
                request = DynamoDB.BatchGetItem(requestItems: unprocessed)
            }
        }
        return keys.map { found[$0] }
    }

    // MARK: Conditional writes

    /// Sends the writes as one TransactWriteItems. A cancelled transaction's reasons say which
    /// writes failed their condition or were refused; the others are `notApplied`. A request
    /// refused as a whole (ValidationException) is split in halves until the refused item is alone.
    func sendTransaction(_ writes: [Planned]) async throws -> [Sent] {
        let puts = writes.map(conditionalPut)
        // A transactional write costs twice a plain one.
        let units = 2 * writes.reduce(0) { $0 + writeUnits($1) }
        var attempt = 1
        while true {
            do {
                _ = try await client.send(
                    DynamoDB.TransactWriteItems(puts: puts), retries: retries, entity: entity.name,
                    writeUnits: units)
                return writes.map { _ in .done }
            } catch let error as DynamoDBError where error.code == .transactionCanceled {
                if let sent = Self.cancelled(error, writes.count) { return sent }
                if error.cancellationReasons.contains(where: { Self.throughputReasons.contains($0.code) }) {
                    client.recordThrottle()
                }
                // Only transient reasons (TransactionConflict, throttling): the same transaction again.
                guard try await client.retry.backOff(after: &attempt, counting: retries, entity: entity.name) else {
                    throw StoreError.dynamoDB(
                        error, at: table, "TransactWriteItems still cancelled after \(attempt) attempts",
                        entity: entity.name)
                }
            } catch let error as DynamoDBError where error.code == .validation {
                return try await bisect(writes, error, sendTransaction)
            } catch let error as DynamoDBError {
                throw StoreError.dynamoDB(error, at: table, entity: entity.name)
            }
        }
    }

    /// Cancellation reasons that mean the transaction was throttled.
    private static let throughputReasons: Set<String> = ["ThrottlingError", "ProvisionedThroughputExceeded"]

    /// What a cancelled transaction's reasons say of its writes; nil when they are all
    /// transient (the transaction is worth sending again as it is). A refused item and a failed
    /// condition are final for that transaction: the other writes are sent again without them.
    private static func cancelled(_ error: DynamoDBError, _ count: Int) -> [Sent]? {
        let reasons = error.cancellationReasons
        // Reasons not itemized: re-read every item and decide again.
        guard reasons.count == count else { return Array(repeating: .conditionFailed, count: count) }
        guard reasons.contains(where: { $0.code == "ConditionalCheckFailed" || $0.isValidation }) else {
            return nil
        }
        return reasons.map { reason in
            if reason.code == "ConditionalCheckFailed" { return .conditionFailed }
            return reason.isValidation ? .refused(reason.message ?? "validation error") : .notApplied
        }
    }

    /// A PutItem request conditional on the item being as read.
    private func conditionalPut(_ write: Planned) -> DynamoDB.PutItem {
        let condition =
            if let version = write.expectedVersion {
                DynamoDB.Condition(
                    "#v = :v", names: ["#v": entity.versionAttribute], values: [":v": .n(String(version))])
            } else {
                DynamoDB.Condition("attribute_not_exists(#k)", names: ["#k": entity.hashKey])
            }
        return DynamoDB.PutItem(tableName: table, content: .text(coding.itemText(write.item)), condition: condition)
    }

    /// Sends one write as a conditional PutItem.
    func sendConditionalPut(_ write: Planned) async throws -> Sent {
        var put = conditionalPut(write)
        put.returnConsumedCapacity = DynamoDB.totalCapacity
        do {
            _ = try await client.send(put, retries: retries, entity: entity.name, writeUnits: writeUnits(write))
            return .done
        } catch let error as DynamoDBError where error.code == .conditionalCheckFailed {
            return .conditionFailed
        } catch let error as DynamoDBError where error.code == .validation {
            return .refused(error.message)
        } catch let error as DynamoDBError {
            throw StoreError.dynamoDB(error, at: table, entity: entity.name)
        }
    }

    // MARK: Unconditional writes

    /// Sends the writes by BatchWriteItem, 25 per request, re-sending `UnprocessedItems` until
    /// none is left.
    func sendBatch(_ writes: [Planned]) async throws -> [Sent] {
        var results: [Sent] = []
        for start in stride(from: 0, to: writes.count, by: Self.batchWriteLimit) {
            let chunk = Array(writes[start..<min(start + Self.batchWriteLimit, writes.count)])
            var request = DynamoDB.BatchWriteItem(requestItems: [
                table: chunk.map { DynamoDB.WriteRequest(put: .text(coding.itemText($0.item))) }
            ])
            let chunkUnits = chunk.reduce(0) { $0 + writeUnits($1) }
            var units = chunkUnits
            var attempt = 1
            do {
                while true {
                    let response = try await client.send(
                        request, retries: retries, entity: entity.name, writeUnits: units)
                    guard let unprocessed = response.unprocessedItems, !unprocessed.isEmpty else { break }
                    let sent = request.requestItems.values.reduce(0) { $0 + $1.count }
                    let left = unprocessed.values.reduce(0) { $0 + $1.count }
                    try await pauseForUnprocessed(&attempt, "BatchWriteItem", progressed: left < sent)
                    request = DynamoDB.BatchWriteItem(requestItems: unprocessed)
                    units = chunkUnits * Double(left) / Double(chunk.count)
                }
                results += chunk.map { _ in .done }
            } catch let error as DynamoDBError where error.code == .validation {
                do {
                    results += try await bisect(chunk, error, sendBatch)
                } catch let failure as SendFailure {
                    throw SendFailure(
                        sent: results + failure.sent, unknown: failure.unknown, underlying: failure.underlying)
                } catch {
                    throw SendFailure(sent: results, unknown: chunk.count, underlying: error)
                }
            } catch let error as DynamoDBError {
                throw SendFailure(
                    sent: results, unknown: chunk.count,
                    underlying: StoreError.dynamoDB(error, at: table, entity: entity.name))
            } catch {
                throw SendFailure(sent: results, unknown: chunk.count, underlying: error)
            }
        }
        return results
    }

    // MARK: Helpers

    /// Splits writes refused as a whole into halves, down to the single refused item.
    private func bisect(
        _ writes: [Planned], _ error: DynamoDBError,
        _ send: ([Planned]) async throws -> [Sent]
    ) async throws -> [Sent] {
        guard writes.count > 1 else { return [.refused(error.message)] }
        let middle = writes.count / 2
        let first = try await send(Array(writes[..<middle]))
        do {
            return try await first + send(Array(writes[middle...]))
        } catch let failure as SendFailure {
            throw SendFailure(sent: first + failure.sent, unknown: failure.unknown, underlying: failure.underlying)
        } catch {
            throw SendFailure(sent: first, unknown: writes.count - middle, underlying: error)
        }
    }

    /// The write capacity units a plain write consumes: one per started KB of its item.
    private func writeUnits(_ write: Planned) -> Double {
        Double((write.size + 1023) / 1024)
    }

    /// Backs off before re-sending unprocessed keys or items: DynamoDB throttled some of them,
    /// which slows the adaptive rate. With the adaptive rate on, when the others went through
    /// (`progressed`), no attempt is used up.
    private func pauseForUnprocessed(_ attempt: inout Int, _ operation: String, progressed: Bool) async throws {
        client.recordThrottle()
        let adaptive = client.rateLimiter != nil
        guard
            try await client.retry.backOff(
                after: &attempt, counting: retries, entity: entity.name,
                usingAnAttempt: !(adaptive && progressed))
        else {
            throw StoreError(
                .throttled,
                "\(table): \(operation) left items unprocessed after \(attempt) attempts (throttled); raise retry.maxAttempts or the table's capacity",
                entity: entity.name, operation: operation)
        }
    }
}
