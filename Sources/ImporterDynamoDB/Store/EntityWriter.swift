import Foundation
import ImporterCore

/// Writes one group of records of an entity (one transaction's worth) with SPEC §6's rules
/// holding on the server: the core's `VersionRules` decide against the stored items, and every
/// write is conditional on the item still being as read (`attribute_not_exists(<key>)` for an
/// insert, `<version> = :expected` for an update). A write whose condition fails is re-read and
/// decided again, so a concurrent writer's change is met as a conflict, never overwritten.
struct EntityWriter {
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

    enum Method {
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
    /// Rounds of decide → write → condition failed → re-read before a record is given up.
    static let maxRounds = 10

    /// One write to send.
    struct Planned {
        /// The record's position in the group.
        let record: Int
        let item: [Value]
        /// nil: an insert (the key must not exist); else the version the item must still have.
        let expectedVersion: Int64?
        let outcome: WriteOutcome
    }

    /// What became of a planned write.
    enum Sent {
        case done
        /// Its condition failed: the item changed since it was read.
        case conditionFailed
        /// Not applied because another write of its transaction failed; send it again.
        case notApplied
        /// The server refused the item itself (a validation error).
        case refused(String)
    }

    /// One outcome per record, in order.
    func write(_ records: ArraySlice<PreparedRecord>) throws -> [WriteOutcome] {
        let incoming = records.map(\.values)
        let keys = incoming.map { $0[entity.hashKeyIndex] }
        var outcomes = [WriteOutcome?](repeating: nil, count: incoming.count)
        var stored: [[Value]?] = knownEmpty ? Array(repeating: nil, count: incoming.count) : try read(keys)
        var pending = Array(incoming.indices)
        for _ in 0..<Self.maxRounds where !pending.isEmpty {
            var planned: [Planned] = []
            for index in pending {
                let (decision, conflict) = rules.decide(incoming[index], stored: stored[index])
                switch decision {
                case .insert(let item):
                    planned.append(Planned(record: index, item: item, expectedVersion: nil, outcome: WriteOutcome(.inserted, conflict: conflict)))
                case .update(let item, let expectedVersion):
                    planned.append(Planned(record: index, item: item, expectedVersion: expectedVersion, outcome: WriteOutcome(.updated, conflict: conflict)))
                case .unchanged:
                    outcomes[index] = WriteOutcome(.unchanged, conflict: conflict)
                case .rolledBack:
                    outcomes[index] = WriteOutcome(.rolledBack, conflict: conflict)
                case .reject(let reason, let message):
                    outcomes[index] = WriteOutcome(.rejected(Rejection(stage: .write, reason: reason, message)), conflict: conflict)
                }
            }
            planned = planned.filter { write in
                let size = coding.itemSize(write.item)
                guard size > Self.maxItemBytes else { return true }
                outcomes[write.record] = WriteOutcome(.rejected(Rejection(stage: .write, reason: .size,
                    "the item is \(size) bytes as DynamoDB counts them; items are limited to \(Self.maxItemBytes) bytes (400 KB), so shorten its longest attributes")))
                return false
            }
            pending = []
            guard !planned.isEmpty else { break }
            let results: [Sent]
            switch method {
            case .transaction: results = try sendTransaction(planned)
            case .eachConditional: results = try planned.map(sendConditionalPut)
            case .batch: results = try sendBatch(planned)
            }
            var changed: [Planned] = []
            for (write, result) in zip(planned, results) {
                switch result {
                case .done: outcomes[write.record] = write.outcome
                case .notApplied: pending.append(write.record)
                case .conditionFailed: changed.append(write)
                case .refused(let message):
                    outcomes[write.record] = WriteOutcome(.rejected(Rejection(stage: .write, reason: .constraint,
                        "DynamoDB refused the item: \(message)")))
                }
            }
            guard !changed.isEmpty else { continue }
            let fresh = try read(changed.map { keys[$0.record] })
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
            outcomes[index] = WriteOutcome(.rejected(Rejection(stage: .write, reason: .conflict,
                "\(entity.name) '\(keys[index])' was changed by another writer each of \(Self.maxRounds) times it was read; run again")), conflict: true)
        }
        return outcomes.map { $0! }
    }

    // MARK: Reading

    /// The stored items with `keys` (nil where none), by BatchGetItem with consistent reads.
    func read(_ keys: [Value]) throws -> [[Value]?] {
        var found: [Value: [Value]] = [:]
        for start in stride(from: 0, to: keys.count, by: 100) {
            var request = "{\"RequestItems\":{\(JSONText.quote(table)):{\"ConsistentRead\":true,\"Keys\":["
                + keys[start..<min(start + 100, keys.count)].map(coding.encodeKey).joined(separator: ",") + "]}}}"
            var attempt = 1
            while true {
                let response = try client.send("BatchGetItem", Array(request.utf8), retries: retries, entity: entity.name)
                for item in (response["Responses"] as? [String: Any])?[table] as? [[String: Any]] ?? [] {
                    let values = try coding.decode(item)
                    found[values[entity.hashKeyIndex]] = values
                }
                guard let unprocessed = response["UnprocessedKeys"] as? [String: Any], !unprocessed.isEmpty else { break }
                try pauseForUnprocessed(&attempt, "BatchGetItem")
                request = String(decoding: json(["RequestItems": unprocessed]), as: UTF8.self)
            }
        }
        return keys.map { found[$0] }
    }

    // MARK: Conditional writes

    /// Sends the writes as one TransactWriteItems. A cancelled transaction's reasons say which
    /// writes failed their condition or were refused; the others are `notApplied`. A request
    /// refused as a whole (ValidationException) is split in halves until the refused item is alone.
    func sendTransaction(_ writes: [Planned]) throws -> [Sent] {
        let actions = writes.map(transactAction).joined(separator: ",")
        var attempt = 1
        while true {
            let body = "{\"ClientRequestToken\":\"\(UUID().uuidString)\",\"TransactItems\":[\(actions)]}"
            do {
                _ = try client.send("TransactWriteItems", Array(body.utf8), retries: retries, entity: entity.name)
                return writes.map { _ in .done }
            } catch let error as DynamoDBError where error.type == "TransactionCanceledException" {
                let reasons = error.cancellationReasons
                guard reasons.count == writes.count else {
                    // Reasons not itemized: re-read every item and decide again.
                    return writes.map { _ in .conditionFailed }
                }
                let final = reasons.contains { $0.code == "ConditionalCheckFailed" || $0.code == "ValidationError" }
                if final {
                    return reasons.map { reason in
                        switch reason.code {
                        case "ConditionalCheckFailed": return .conditionFailed
                        case "ValidationError": return .refused(reason.message ?? "validation error")
                        default: return .notApplied
                        }
                    }
                }
                // Only transient reasons (TransactionConflict, throttling): the same transaction again.
                guard client.retry.backOff(after: &attempt, counting: retries, entity: entity.name) else {
                    throw StoreError("\(table): TransactWriteItems still cancelled after \(attempt) attempts: \(error)")
                }
            } catch let error as DynamoDBError where error.type == "ValidationException" {
                return try bisect(writes, error, sendTransaction)
            } catch let error as DynamoDBError {
                throw StoreError("\(table): \(error)")
            }
        }
    }

    private func transactAction(_ write: Planned) -> String {
        "{\"Put\":" + conditionalPut(write) + "}"
    }

    /// A PutItem request conditional on the item being as read.
    private func conditionalPut(_ write: Planned) -> String {
        let condition: String
        if let version = write.expectedVersion {
            condition = "\"ConditionExpression\":\"#v = :v\",\"ExpressionAttributeNames\":{\"#v\":\(JSONText.quote(entity.versionAttribute))},\"ExpressionAttributeValues\":{\":v\":{\"N\":\"\(version)\"}}"
        } else {
            condition = "\"ConditionExpression\":\"attribute_not_exists(#k)\",\"ExpressionAttributeNames\":{\"#k\":\(JSONText.quote(entity.hashKey))}"
        }
        return "{\"TableName\":\(JSONText.quote(table)),\"Item\":\(coding.encode(write.item)),\(condition)}"
    }

    /// Sends one write as a conditional PutItem.
    func sendConditionalPut(_ write: Planned) throws -> Sent {
        do {
            _ = try client.send("PutItem", Array(conditionalPut(write).utf8), retries: retries, entity: entity.name)
            return .done
        } catch let error as DynamoDBError where error.type == "ConditionalCheckFailedException" {
            return .conditionFailed
        } catch let error as DynamoDBError where error.type == "ValidationException" {
            return .refused(error.message)
        } catch let error as DynamoDBError {
            throw StoreError("\(table): \(error)")
        }
    }

    // MARK: Unconditional writes

    /// Sends the writes by BatchWriteItem, 25 per request, re-sending `UnprocessedItems` until
    /// none is left.
    func sendBatch(_ writes: [Planned]) throws -> [Sent] {
        var results: [Sent] = []
        for start in stride(from: 0, to: writes.count, by: 25) {
            let chunk = Array(writes[start..<min(start + 25, writes.count)])
            var request = "{\"RequestItems\":{\(JSONText.quote(table)):["
                + chunk.map { "{\"PutRequest\":{\"Item\":\(coding.encode($0.item))}}" }.joined(separator: ",") + "]}}"
            var attempt = 1
            do {
                while true {
                    let response = try client.send("BatchWriteItem", Array(request.utf8), retries: retries, entity: entity.name)
                    guard let unprocessed = response["UnprocessedItems"] as? [String: Any], !unprocessed.isEmpty else { break }
                    try pauseForUnprocessed(&attempt, "BatchWriteItem")
                    request = String(decoding: json(["RequestItems": unprocessed]), as: UTF8.self)
                }
                results += chunk.map { _ in .done }
            } catch let error as DynamoDBError where error.type == "ValidationException" {
                results += try bisect(chunk, error, sendBatch)
            } catch let error as DynamoDBError {
                throw StoreError("\(table): \(error)")
            }
        }
        return results
    }

    // MARK: Helpers

    /// Splits writes refused as a whole into halves, down to the single refused item.
    private func bisect(_ writes: [Planned], _ error: DynamoDBError, _ send: ([Planned]) throws -> [Sent]) throws -> [Sent] {
        guard writes.count > 1 else { return [.refused(error.message)] }
        let middle = writes.count / 2
        return try send(Array(writes[..<middle])) + send(Array(writes[middle...]))
    }

    /// Backs off before re-sending unprocessed keys or items.
    private func pauseForUnprocessed(_ attempt: inout Int, _ operation: String) throws {
        guard client.retry.backOff(after: &attempt, counting: retries, entity: entity.name) else {
            throw StoreError("\(table): \(operation) left items unprocessed after \(attempt) attempts (throttled); raise retry.maxAttempts or the table's capacity")
        }
    }
}
