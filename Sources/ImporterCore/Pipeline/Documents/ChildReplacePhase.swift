import Foundation

/// The replace phase of document sources, once every input is written (docs/documents.md#re-loading):
/// a stored child of a parent that this run loaded from a document, and that the document no
/// longer holds, is deleted with its relationships' delete rules; a dry run only plans it.
struct ChildReplacePhase {
    let model: Model
    let inputs: [RunInput]
    let store: any Store
    let dryRun: Bool
    let reportDirectory: String
    /// Whether this run continues an interrupted one (`--resume`).
    var resumed = false
    /// Saves what the phase did with its deletes, before they are committed (the checkpoint).
    var committing: ((Checkpoint.CommittedDeletes) throws -> Void)?
    /// Saves what the phase will delete before the first delete (`planned`), on a store that
    /// cannot roll back.
    var planning: ((Checkpoint.CommittedDeletes) throws -> Void)?
    /// The deletes.ndjson lines an interrupted run's phase planned before it was stopped among
    /// its deletes: those this run's plan no longer finds were made, and are reported.
    var interruptedPlan: String?

    /// The child inputs whose entities are replaced: not in `insert` mode (which only adds)
    /// nor `sync` (whose delete phase covers them), and not `replace: false`.
    static func replacedInputs(_ inputs: [RunInput], mode: WriteConfig.Mode) -> [RunInput] {
        guard mode != .insert && mode != .sync else { return [] }
        return inputs.filter { ($0.document?.node ?? 0) > 0 && $0.document!.replace }
    }

    /// The inputs whose records' keys the key stage keeps for the phase: the parents of the
    /// replaced children, whose children are then read by their key (a Query on DynamoDB).
    static func parentInputs(_ inputs: [RunInput], mode: WriteConfig.Mode) -> Set<Int> {
        let parents = Set(replacedInputs(inputs, mode: mode).map { $0.document!.parentEntity })
        return Set(inputs.indices.filter { inputs[$0].document != nil && parents.contains(inputs[$0].entity.name) })
    }

    /// Runs the phase after the key stage (which knows the keys the documents named) is done,
    /// and writes `deletes.ndjson`. `rejectedWhileWriting`: the records the write
    /// stage rejected, in this run or in the run it resumes, whose children stay as they are.
    /// Nil when no input's children are replaced.
    func run(keys: KeyStage, rejectedWhileWriting: Set<EntityKey>, recorder: RunRecorder, mode: WriteConfig.Mode)
        -> RunReport.DeletePhase?
    {
        let replaced = Self.replacedInputs(inputs, mode: mode)
        guard !replaced.isEmpty else { return nil }
        var phase = RunReport.DeletePhase()
        phase.phase = "documents"
        if let reason = recorder.abortReason {
            phase.refused =
                "the run was aborted (\(reason)); no document's children are replaced after an incomplete read"
            return phase
        }
        // Per child entity, how its items name their parent.
        var parents: [String: DocumentInput] = [:]
        for input in replaced { parents[input.entity.name] = input.document! }
        // A child rejected with an element or document above it has a parent this run did not
        // load, whose children stay as they are: its key is not needed.
        if let (entity, count) = keys.unkeyedListedRejects.first(where: { parents[$0.key] != nil }) {
            phase.refused =
                "\(count) rejected \(entity) record(s) have no readable key, so the stored children they meant cannot be told apart; no document's children were replaced. Fix them (see rejects.ndjson) and run again"
            return phase
        }
        do {
            return try replace(
                parents, keys: keys, rejectedWhileWriting: rejectedWhileWriting, recorder: recorder)
        } catch {
            if dryRun {
                phase.refused = "cannot plan replacing the documents' children: \(error)"
            } else {
                recorder.abort(.store("replacing the documents' children failed", error))
                phase.refused =
                    "the store failed while the documents' children were replaced; nothing of it was committed"
            }
            return phase
        }
    }

    /// Deletes the stored children of `parents`' entities (by child entity) that left their
    /// documents, commits (with what was deleted, `committing`) and writes deletes.ndjson.
    private func replace(
        _ parents: [String: DocumentInput], keys: KeyStage, rejectedWhileWriting: Set<EntityKey>,
        recorder: RunRecorder
    ) throws -> RunReport.DeletePhase {
        let parentEntities = parents.mapValues { model.entity(named: $0.parentEntity)! }
        let entities = model.parentsFirstOrder.compactMap { name in
            parents[name] != nil ? model.entity(named: name) : nil
        }
        // Per child entity, the stored children deleted (and their parents) of documents that had
        // no key for their array (`missing: empty`), for the warning.
        var deletedWhereAbsent: [String: (children: Int, parents: Set<Value>)] = [:]
        func phase(of outcome: SyncDeletes.Outcome) -> RunReport.DeletePhase {
            var phase = RunReport.DeletePhase(outcome)
            phase.phase = "documents"
            if !outcome.deleted.isEmpty, !deletedWhereAbsent.isEmpty {
                phase.warnings = deletedWhereAbsent.sorted { $0.key < $1.key }.map { entity, deleted in
                    let role = parents[entity]!
                    let path = role.shape.nodes[role.node].arrayPath.joined(separator: ".")
                    return
                        "\(deleted.children) stored \(entity) item(s) of \(deleted.parents.count) document(s) without a '\(path)' key were deleted, as for an empty array (missing: empty); with 'missing: keep' on the child, a document that leaves the array out keeps its stored \(entity) items"
                }
            }
            return phase
        }
        // Every child removed from a document goes, whatever share of the stored ones it is.
        let deletes = SyncDeletes(model: model, store: store, limit: .percent(100))
        let outcome = try deletes.run(
            entities: entities, preview: dryRun,
            inScope: { entity, item in
                // A child of a parent this run loaded and did not reject (a parent rejected
                // while writing passed the key checks).
                let role = parents[entity.name]!
                let parentKey = Value.key(item, at: role.parentKeyAttributes)
                let parent = parentEntities[entity.name]!
                guard !parentKey.isNull, try keys.wasLoaded(parentKey, entity: parent) else { return false }
                guard rejectedWhileWriting.isEmpty || !rejectedWhileWriting.contains(EntityKey(parent, parentKey))
                else { return false }
                if !keys.absentArrays.isEmpty, keys.absentArrays.contains(EntityKey(entity, parentKey)) {
                    // The document had no key for the array: its stored children stay (`keep`).
                    guard role.missing == .empty else { return false }
                    if try !keys.wasNamed(entity.key(of: item), entity: entity) {
                        deletedWhereAbsent[entity.name, default: (0, [])].children += 1
                        deletedWhereAbsent[entity.name]!.parents.insert(parentKey)
                    }
                }
                return true
            },
            candidates: { entity, body in
                try readChildren(
                    of: entity, role: parents[entity.name]!, keys: keys, skipping: rejectedWhileWriting,
                    recorder: recorder, body)
            },
            isInInput: { entity, key in try keys.wasNamed(key, entity: entity) },
            beforeApplying: planning.map { save in
                { planned in
                    try save(.init(phase: phase(of: planned), lines: DeletesFile.lines(of: planned), planned: true))
                }
            },
            interruptedPlan: interruptedPlan,
            beforeCommit: committing.map { save in
                { outcome in try save(.init(phase: phase(of: outcome), lines: DeletesFile.lines(of: outcome))) }
            })
        try DeletesFile.write(outcome, to: FilePaths.join(reportDirectory, "deletes.ndjson"))
        return phase(of: outcome)
    }

    /// The stored children of `entity` that may have left their documents: none when this run
    /// wrote every stored one; when its hash key is its parent's (first) key attribute, those of
    /// each parent the run loaded and did not reject while writing (`skipping`), read by that
    /// key; otherwise every stored one.
    private func readChildren(
        of entity: Entity, role: DocumentInput, keys: KeyStage, skipping rejected: Set<EntityKey>,
        recorder: RunRecorder, _ body: ([Value]) throws -> Void
    ) throws {
        guard role.parentKeyAttributes.first == entity.hashKeyIndex else {
            if try wroteEveryStoredItem(of: entity, recorder: recorder) { return }
            return try store.scan(entity, body)
        }
        let parentKeys = keys.loadedKeys[role.parentEntity] ?? []
        // The children of many parents are most of the stored ones: counting them costs less
        // than reading them (a re-load of 300 regions' documents: 0.1 ms against 18 ms).
        if parentKeys.count >= Self.countedFromParents, try wroteEveryStoredItem(of: entity, recorder: recorder) {
            return
        }
        var asked = Set<String>()
        for parentKey in parentKeys where !rejected.contains(EntityKey(entity: role.parentEntity, key: parentKey)) {
            let hash: Value
            if case .pair(let first, _) = parentKey { hash = first } else { hash = parentKey }
            guard asked.insert(hash.description).inserted else { continue }
            try store.items(matching: ItemQuery(.equals(entity.hashKey, hash)), of: entity, body)
        }
    }

    /// The loaded parents from which their children are counted before they are read.
    static let countedFromParents = 256

    /// Whether every stored item of `entity` is one this run inserted, updated or found
    /// unchanged: each of those is a distinct key (the key stage rejects a second record with
    /// one), stored now, and named by the run, so when there are as many of them as stored
    /// items, no stored item can have left its document, and none needs reading. Not for a
    /// dry run (nothing was written) nor a resumed one (the counts include the first run's).
    private func wroteEveryStoredItem(of entity: Entity, recorder: RunRecorder) throws -> Bool {
        guard !dryRun, !resumed else { return false }
        var written = 0
        for input in recorder.inputs where input.entity == entity.name {
            written += input.counts.inserted + input.counts.updated + input.counts.unchanged
        }
        return try written == store.count(of: entity)
    }
}
