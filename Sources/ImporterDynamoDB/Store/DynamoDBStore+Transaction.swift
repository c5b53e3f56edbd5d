import ImporterAWS
import ImporterCore

/// The library's transactions (`ItemAccess`, docs/library.md#transactions: each `ItemStore`
/// call one transaction). Writes and deletes wait in an `OpenTransaction`, where the
/// transaction's reads see them; when its body returns they are sent as one TransactWriteItems,
/// each conditional on its item being as the transaction first read it, with a ConditionCheck
/// on each item it read and did not change (a reference's parent). The call is then applied
/// whole or not at all, and a change by another writer in between cancels it as
/// `ItemError.conflict`.
///
/// A transaction holds at most 100 actions: a call that changes and reads more items than that
/// is refused before anything is sent. Scans are not checked: an item another writer adds
/// meanwhile does not cancel the transaction.
extension DynamoDBStore {
    /// The actions one TransactWriteItems may hold.
    static let transactionActionLimit = 100

    var inTransaction: Bool { openTransaction.withLock { $0 != nil } }

    /// Opens a transaction: from now on writes and deletes are kept in memory.
    package func beginItemTransaction() async throws {
        beginTransaction()
    }

    /// Ends the open transaction: with `commit`, what it changed is sent as one TransactWriteItems.
    package func endItemTransaction(commit: Bool) async throws {
        guard let transaction = endTransaction(), commit else { return }
        try await self.commit(transaction)
    }

    /// Decides `records` against the items as the open transaction sees them (`writeInTransaction`).
    package func writeItems(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) async throws
        -> [WriteOutcome]
    {
        try await windowWrite(records, of: entity, rules: rules)()
    }

    /// Opens a transaction: from now on writes and deletes are kept in memory.
    func beginTransaction() {
        openTransaction.withLock { open in
            precondition(open == nil, "a transaction of a DynamoDBStore inside another")
            open = OpenTransaction()
        }
    }

    /// Closes the open transaction; what it read and changed, to `commit`, or to drop.
    func endTransaction() -> OpenTransaction? {
        openTransaction.withLock { open in
            defer { open = nil }
            return open
        }
    }

    /// The item with `key` as the open transaction sees it: read from the table the first time.
    func itemInTransaction(_ key: Value, of entity: Entity) async throws -> [Value]? {
        if let touched = openTransaction.withLock({ $0?.item(key, of: entity) }) { return touched.current }
        let stored = try await storedItem(key, of: entity, projection: false)
        openTransaction.withLock { $0?.read(key, of: entity, stored: stored) }
        return stored
    }

    /// The entity's items the open transaction changed, in the order it first read them; none
    /// outside a transaction.
    func changesInTransaction(of entity: Entity) -> [OpenTransaction.Touched] {
        openTransaction.withLock { $0?.changes(of: entity) } ?? []
    }

    /// How many items the open transaction added to the entity's table, less those it deleted.
    func countChangedInTransaction(of entity: Entity) -> Int {
        changesInTransaction(of: entity).reduce(0) { total, item in
            total + (item.current == nil ? 0 : 1) - (item.stored == nil ? 0 : 1)
        }
    }

    /// Decides each record against the item as the transaction sees it, as `VersionRules` say.
    /// The items it has not read yet are read first, a hundred keys a request.
    func writeInTransaction(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) async throws
        -> [WriteOutcome]
    {
        let keys = records.map { entity.key(of: $0.values) }
        var seen = Set<Value>()
        let unread = openTransaction.withLock { open in
            keys.filter { seen.insert($0).inserted && open?.item($0, of: entity) == nil }
        }
        if unread.count > 1 {
            let stored = try await items(unread, of: entity)
            openTransaction.withLock { open in
                for (key, item) in zip(unread, stored) { open?.read(key, of: entity, stored: item) }
            }
        }
        var outcomes: [WriteOutcome] = []
        outcomes.reserveCapacity(records.count)
        for (record, key) in zip(records, keys) {
            let current = try await itemInTransaction(key, of: entity)
            let (decision, conflict) = rules.decide(record.values, stored: current)
            switch decision {
            case .insert(let row), .update(let row, _):
                openTransaction.withLock { $0?.change(key, of: entity, to: .put(row)) }
                outcomes.append(WriteOutcome(current == nil ? .inserted : .updated, conflict: conflict))
            case .unchanged: outcomes.append(WriteOutcome(.unchanged, conflict: conflict))
            case .rolledBack: outcomes.append(WriteOutcome(.rolledBack, conflict: conflict))
            case .reject(let reason, let message):
                outcomes.append(
                    WriteOutcome(.rejected(Rejection(stage: .write, reason: reason, message)), conflict: conflict))
            }
        }
        return outcomes
    }

    func deleteInTransaction(_ key: Value, expectedVersion: Int64, of entity: Entity) async throws -> Bool {
        guard let current = try await itemInTransaction(key, of: entity),
            (current[entity.versionIndex].integerValue ?? 0) == expectedVersion
        else {
            return false
        }
        openTransaction.withLock { $0?.change(key, of: entity, to: .delete) }
        return true
    }

    /// Sends what the transaction changed as one TransactWriteItems; nothing when it only read.
    func commit(_ transaction: OpenTransaction) async throws {
        guard transaction.hasChanges else { return }
        let actions = try transaction.touched.map(action)
        guard actions.count <= Self.transactionActionLimit else {
            throw StoreError(
                .transactionTooLarge(limit: Self.transactionActionLimit),
                "a call on DynamoDB is one TransactWriteItems of at most \(Self.transactionActionLimit) items written or read; "
                    + "this one needs \(actions.count): split it into smaller calls", operation: "TransactWriteItems")
        }
        try await send(actions, for: transaction.touched)
    }

    /// The documents a pipeline's `writingGroups` wrote, as one TransactWriteItems: `GroupNotApplied`
    /// when DynamoDB cancels it for an item (a failed condition: another writer; a refused item)
    /// or refuses it whole.
    func commitGroups(_ transaction: OpenTransaction) async throws {
        guard transaction.hasChanges else { return }
        let items = transaction.touched
        let actions = try items.map(action)
        guard actions.count <= Self.transactionActionLimit else {
            throw GroupNotApplied.refusedWhole(
                message:
                    "\(actions.count) items are more than one TransactWriteItems holds (\(Self.transactionActionLimit))"
            )
        }
        var units = 0.0
        for item in items {
            if case .put(let values) = item.change {
                units += 2 * Double((try coding(item.entity).itemSize(values) + 1023) / 1024)
            }
        }
        do {
            try await sendTransaction(actions, entity: items[0].entity.name, writeUnits: units) { reasons in
                reasons.contains { $0.code == "ConditionalCheckFailed" || $0.isValidation }
            }
        } catch let error as DynamoDBError where error.code == .transactionCanceled {
            let reasons = error.cancellationReasons
            guard reasons.count == items.count, let refused = reasons.firstIndex(where: \.isValidation) else {
                throw GroupNotApplied.changed
            }
            throw GroupNotApplied.refused(
                entity: items[refused].entity.name, key: items[refused].key,
                message: reasons[refused].message ?? "validation error")
        } catch let error as DynamoDBError where error.code == .validation {
            throw GroupNotApplied.refusedWhole(message: error.message)
        } catch let error as DynamoDBError {
            throw StoreError.dynamoDB(error, at: "TransactWriteItems")
        }
    }

    /// Sends `actions` as one TransactWriteItems, again after a cancellation whose reasons
    /// `isFinal` does not take (only transient ones: conflicts with other transactions,
    /// throttling); the others, and every other failure, are thrown as DynamoDB's error.
    private func sendTransaction(
        _ actions: [DynamoDB.TransactWriteItems.Action], entity: String, writeUnits: Double = 0,
        isFinal: ([DynamoDBError.CancellationReason]) -> Bool
    ) async throws {
        var attempt = 1
        while true {
            do {
                _ = try await client.send(
                    DynamoDB.TransactWriteItems(actions: actions), retries: retries, entity: entity,
                    writeUnits: writeUnits)
                return
            } catch let error as DynamoDBError where error.code == .transactionCanceled {
                if isFinal(error.cancellationReasons) { throw error }
                guard try await client.retry.backOff(after: &attempt, counting: retries, entity: entity) else {
                    throw StoreError.dynamoDB(
                        error, at: "TransactWriteItems", "still cancelled after \(attempt) attempts")
                }
            }
        }
    }

    private func action(_ item: OpenTransaction.Touched) throws -> DynamoDB.TransactWriteItems.Action {
        let coding = try coding(item.entity)
        let table = tables.table(of: item.entity)
        let condition = Self.unchangedSinceRead(item)
        switch item.change {
        case .put(let values):
            return .put(
                DynamoDB.PutItem(tableName: table, content: .text(coding.itemText(values)), condition: condition))
        case .delete where item.stored != nil:
            var delete = DynamoDB.DeleteItem(tableName: table, key: coding.key(item.key), condition: condition)
            delete.returnConsumedCapacity = nil
            return .delete(delete)
        case .delete, nil:  // read only, or added and deleted by the transaction: still as read
            return .conditionCheck(
                DynamoDB.ConditionCheck(tableName: table, key: coding.key(item.key), condition: condition))
        }
    }

    /// The item is stored at the version the transaction read, or still not stored.
    private static func unchangedSinceRead(_ item: OpenTransaction.Touched) -> DynamoDB.Condition {
        guard let stored = item.stored else {
            return DynamoDB.Condition("attribute_not_exists(#k)", names: ["#k": item.entity.hashKey])
        }
        let version = stored[item.entity.versionIndex].integerValue ?? 0
        return DynamoDB.Condition(
            "#v = :v", names: ["#v": item.entity.versionAttribute], values: [":v": .n(String(version))])
    }

    /// Sends the transaction, again after transient cancellations (conflicts with other
    /// transactions, throttling); a failed condition is the `ItemError.conflict` of its item.
    private func send(_ actions: [DynamoDB.TransactWriteItems.Action], for items: [OpenTransaction.Touched])
        async throws
    {
        let conflicted = { (reasons: [DynamoDBError.CancellationReason]) in
            reasons.count == items.count ? reasons.firstIndex { $0.code == "ConditionalCheckFailed" } : nil
        }
        do {
            try await sendTransaction(actions, entity: items[0].entity.name) { reasons in
                conflicted(reasons) != nil || reasons.contains(where: \.isValidation)
            }
        } catch let error as DynamoDBError where error.code == .transactionCanceled {
            if let failed = conflicted(error.cancellationReasons) { throw try await conflict(items[failed]) }
            let refused = error.cancellationReasons.first(where: \.isValidation)
            let message = refused?.message ?? "validation error"
            throw StoreError(
                StoreError.validationKind(message, type: refused?.code ?? "ValidationError"),
                "TransactWriteItems refused: \(message)", operation: "TransactWriteItems", underlying: error)
        } catch let error as DynamoDBError {
            throw StoreError.dynamoDB(error, at: "TransactWriteItems")
        }
    }

    /// The conflict of an item another writer changed since the transaction read it.
    private func conflict(_ item: OpenTransaction.Touched) async throws -> ItemError {
        let coding = try coding(item.entity)
        let response = try await send(
            DynamoDB.GetItem(tableName: tables.table(of: item.entity), key: coding.key(item.key)), item.entity)
        let now = try response.item.map(coding.decode)
        let versionIndex = item.entity.versionIndex
        return .conflict(
            entity: item.entity.name, key: item.key, stored: now?[versionIndex].integerValue ?? 0,
            incoming: item.stored?[versionIndex].integerValue ?? 0)
    }
}
