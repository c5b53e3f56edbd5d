import ImporterCore

/// Writing items: one transaction per batch (or per run when atomic), the version rules
/// decided against the stored item, records the store refuses rejected alone.
extension StoreConnection {
    /// A record that needs a statement; written in `order`, then `position`.
    private struct QueuedWrite {
        /// The key's locality, so that neighbouring keys share B-tree pages: the hash key's,
        /// then the range key's (0 without one).
        let order: UInt64
        let rangeOrder: UInt64
        let position: Int
        let blind: Bool
        let image: (key: UInt64, content: UInt64)?
        /// Whether the content index knew the key (its content differed).
        var indexed = false
    }

    func write(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) throws -> [WriteOutcome] {
        if let bulk, bulk.entities[entity.name] != nil {
            groupsStagedBulkRows = true
            do {
                // Rows staged in the store commit with it; the staging file's commit on their own.
                if bulk.rows(of: entity) === bulk.storeTables { try beginTransactionIfNeeded() }
                return try bulk.write(records, of: entity, rules: rules)
            } catch {
                rollBack()
                throw StoreError.sqlite(error, at: bulk.rows(of: entity).path, entity: entity.name, operation: "write")
            }
        }
        let statements = try prepared(entity)
        do {
            try beginWriting()
            let index = contentIndexes.index(of: entity)
            var outcomes = [WriteOutcome](repeating: WriteOutcome(.unchanged), count: records.count)
            let (pending, unchanged) = try plan(records, of: entity, rules: rules, index: index)
            var storedBlindUpserts = unchanged
            var missedStored = 0  // stored items the content index did not know
            var lastFound: Int?  // in input order
            for write in pending {
                let outcome = try self.write(
                    records.values(at: write.position), write, statements, entity, rules, index)
                outcomes[write.position] = outcome
                guard write.blind, outcome.foundStored else { continue }
                storedBlindUpserts += 1
                if write.image != nil, !write.indexed { missedStored += 1 }
                lastFound = max(lastFound ?? write.position, write.position)
            }
            if let lastFound, storedBlindUpserts >= 1024, storedBlindUpserts * 2 >= records.count {
                try contentIndexes.foundStored(
                    entity, lastFound: entity.key(of: records.values(at: lastFound)),
                    mostlyMissed: missedStored * 2 >= storedBlindUpserts)
            }
            return outcomes
        } catch {
            // Whatever failed, no write of this batch may be committed later by another COMMIT.
            rollBack()
            throw StoreError.sqlite(error, at: path, entity: entity.name, operation: "write")
        }
    }

    /// The records that need a statement, in key order (records of one key stay in order), and
    /// how many blind upserts the content index found unchanged without one.
    private func plan(
        _ records: [PreparedRecord], of entity: Entity, rules: VersionRules,
        index: (any StoredContent)?
    ) throws -> (pending: [QueuedWrite], unchanged: Int) {
        var unchanged = 0
        var pending: [QueuedWrite] = []
        pending.reserveCapacity(records.count)
        for position in records.indices {
            let values = records.values(at: position)
            let blind = rules.isBlindUpsert(values)
            var image: (key: UInt64, content: UInt64)?
            var indexed = false
            if let index, blind {
                let record = contentIndexes.image(of: values, entity: entity)
                let stored = try index.content(of: record.key)
                if stored == record.content {
                    unchanged += 1
                    continue
                }
                image = record
                indexed = stored != nil
            }
            pending.append(
                QueuedWrite(
                    order: values[entity.hashKeyIndex].localityKey,
                    rangeOrder: entity.rangeKeyIndex.map { values[$0].localityKey } ?? 0,
                    position: position, blind: blind, image: image, indexed: indexed))
        }
        pending.sort { ($0.order, $0.rangeOrder, $0.position) < ($1.order, $1.rangeOrder, $1.position) }
        return (pending, unchanged)
    }

    /// One record: its outcome, the content index kept right; a record SQLite refuses is rejected.
    private func write(
        _ values: [Value], _ write: QueuedWrite, _ statements: EntityStatements, _ entity: Entity,
        _ rules: VersionRules, _ index: (any StoredContent)?
    ) throws -> WriteOutcome {
        do {
            let outcome = try apply(values, blind: write.blind, statements, entity, rules)
            if let index, outcome.wrote {
                contentIndexes.noteWrite(of: values, image: write.image, entity: entity, in: index)
            }
            return outcome
        } catch let error as SQLiteError where !error.isFatal {
            // SQLite backs out the refused statement only; the transaction goes on. If it
            // rolled the whole transaction back (a RAISE(ROLLBACK) trigger, ON CONFLICT
            // ROLLBACK), earlier writes of the batch are gone: that is a store failure.
            guard !database.isAutocommit else {
                throw StoreError.sqlite(
                    error, at: path, "SQLite rolled back the whole transaction after refusing a record",
                    entity: entity.name, operation: "write")
            }
            return WriteOutcome(
                .rejected(
                    Rejection(
                        stage: .write, reason: .constraint,
                        "the store refused the record: \(error.message)")))
        }
    }

    /// A rowid no insert gets in practice: set before a blind upsert, it tells an insert from an update.
    private static let noInsert = Int64.min

    /// Lets the version rules decide against the stored item, and performs the write.
    ///
    /// A blind upsert is one conditional statement. Otherwise a record the rules would insert is
    /// first tried with `INSERT … ON CONFLICT DO NOTHING` (one B-tree search for a new key), and
    /// only when the key exists is the stored item read and decided on. `blind`: what
    /// `rules.isBlindUpsert(values)` says.
    private func apply(
        _ values: [Value], blind: Bool, _ statements: EntityStatements, _ entity: Entity,
        _ rules: VersionRules
    ) throws -> WriteOutcome {
        if blind {
            // One statement, one B-tree search: re-runs and refreshes never read the item.
            database.lastInsertRowid = Self.noInsert
            try run(statements.upsertIfChanged, values, version: 1, entity)
            if database.changes == 0 { return WriteOutcome(.unchanged) }
            return WriteOutcome(database.lastInsertRowid != Self.noInsert ? .inserted : .updated)
        }
        if let version = rules.newItemVersion(values) {
            try run(statements.insertIfNew, values, version: version, entity)
            if database.changes == 1 { return WriteOutcome(.inserted) }
        }
        let select = statements.select
        let parts = entity.keyIndices.map { values[$0] }
        let stored = try select.withArguments(parts) {
            for (index, part) in parts.enumerated() { try select.bind(part, at: Int32(index + 1)) }
            defer { select.reset() }
            return try select.step() ? row(select, entity) : nil
        }
        let (decision, conflict) = rules.decide(values, stored: stored)
        switch decision {
        case .unchanged:
            return WriteOutcome(.unchanged, conflict: conflict)
        case .rolledBack:
            return WriteOutcome(.rolledBack, conflict: conflict)
        case .reject(let reason, let message):
            return WriteOutcome(.rejected(Rejection(stage: .write, reason: reason, message)), conflict: conflict)
        case .insert(let row):
            try statements.insert.execute(row)
            return WriteOutcome(.inserted, conflict: conflict)
        case .update(let row, let expectedVersion):
            try statements.update.execute(row + entity.keyIndices.map { row[$0] } + [.integer(expectedVersion)])
            guard database.changes == 1 else {
                throw StoreError(
                    .conflictingWriter,
                    "\(path): \(entity.name) \(entity.describe(key: entity.key(of: row))) changed during the write",
                    entity: entity.name, key: entity.key(of: row), operation: "update")
            }
            return WriteOutcome(.updated, conflict: conflict)
        }
    }

    /// Runs an insert of `values` with `version` in place of the record's version: bound one
    /// by one (the hot path makes no array), the arguments made only for an error.
    private func run(_ statement: Statement, _ values: [Value], version: Int64, _ entity: Entity) throws {
        let versionIndex = entity.versionIndex
        try statement.withArguments(Self.replacing(versionIndex, of: values, with: .integer(version))) {
            for index in values.indices where index != versionIndex {
                try statement.bind(values[index], at: Int32(index + 1))
            }
            try statement.bind(Int32(versionIndex + 1), int64: version)
            defer { statement.reset() }
            try statement.step()
        }
    }

    private static func replacing(_ index: Int, of values: [Value], with value: Value) -> [Value] {
        var values = values
        values[index] = value
        return values
    }

    func delete(_ key: Value, expectedVersion: Int64, of entity: Entity) throws -> Bool {
        let delete = try prepared(entity).delete
        do {
            try beginWriting()
            contentIndexes.noteDelete(of: key, entity: entity)
            try delete.execute(entity.keyParts(key) + [.integer(expectedVersion)])
            return database.changes == 1
        } catch {
            rollBack()
            throw StoreError.sqlite(
                error, at: path, "cannot delete \(entity.name) '\(key)'", entity: entity.name, key: key,
                operation: "delete")
        }
    }

    // MARK: Batches

    func beginRun(atomic: Bool) throws {
        try forgetUnchangedInputs()
        holdsCommits = atomic
        // An atomic run commits once, at its end: nothing to copy before.
        if !atomic { try startCheckpointer() }
    }

    func finishRun(commit: Bool) throws {
        defer {
            stopCheckpointer()
            leaveRollbackJournal()
        }
        try contentIndexes.forgetWindows()
        if let bulk {
            self.bulk = nil
            if commit { return try buildStagedTables(bulk) }
            bulk.rollBack()
            bulk.file?.close()
        }
        guard !database.isAutocommit else { return }
        if commit {
            try database.commit()
        } else {
            contentIndexes.forgetAll()
            try database.rollBack()
        }
    }

    func commit() throws {
        guard !holdsCommits else { return }
        var staged = false
        do {
            if let bulk, bulk.hasUncommitted { staged = try commitStagedRows(bulk) }
            guard !database.isAutocommit else { return }
            try database.commit()
            try bulk?.storeTables.commit()
            checkpointerCommitted()
        } catch {
            if staged { bulk?.markUnbuildable("the store failed to commit after its staged rows: \(error)") }
            rollBack()
            throw StoreError.sqlite(error, at: path, "cannot commit", operation: "commit")
        }
    }

    /// Begins the write transaction if none is open, and drops the content indexes if another
    /// connection has committed since they were read (it holds no lock between our transactions).
    func beginWriting() throws {
        try beginTransactionIfNeeded()
        try contentIndexes.dropIfStale()
    }

    /// Takes the write lock for a batch; the content indexes note the connection's change count
    /// (`ContentIndexes.transactionBegan`).
    func beginTransactionIfNeeded() throws {
        guard database.isAutocommit else { return }
        try database.begin(.immediate)
        contentIndexes.transactionBegan()
    }

    /// Rolls back what is open; the content indexes may hold its writes, so they go too.
    func rollBack() {
        contentIndexes.forgetAll()
        database.rollBackQuietly()
        bulk?.rollBack()
    }
}

extension WriteOutcome {
    /// Whether the store held the item already (a blind upsert updated it or found it unchanged).
    var foundStored: Bool {
        switch result {
        case .updated, .unchanged: return true
        case .inserted, .rolledBack, .rejected: return false
        }
    }

    /// Whether the store changed the item.
    var wrote: Bool {
        switch result {
        case .inserted, .updated: return true
        case .unchanged, .rolledBack, .rejected: return false
        }
    }
}
