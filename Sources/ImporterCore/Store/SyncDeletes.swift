import Foundation

/// The delete phase of `mode: sync` (docs/writes.md): after the upsert pass, stored items of the synced
/// entities whose keys were not in the input are deleted, with their relationships' delete rules.
///
/// Everything is planned first. If the plan would delete more than `maxDeletes` of any entity
/// (cascades included), nothing is deleted and the phase is refused.
package struct SyncDeletes {
    /// What the phase did.
    package struct Outcome: Sendable {
        /// Why nothing was deleted, when the phase was refused.
        package var refused: String?
        package var deleted: [DeletePlan.Deletion] = []
        package var nullified: [DeletePlan.Nullification] = []
        /// Vanished items kept: a `deny` rule, a dependant in the input, a concurrent change.
        package var denied: [DeletePlan.Denial] = []
        /// Deletes and nullifications of an interrupted run's phase that it made before it was
        /// stopped, and that this run's plan no longer holds: deletes.ndjson's lines for them.
        package var madeBefore: [MadeBefore] = []
    }

    /// A delete or nullification an interrupted run made, as deletes.ndjson lists it.
    package struct MadeBefore: Sendable, Equatable {
        package let entity: String
        /// True for a delete, false for a nullification.
        package let deleted: Bool
        package let line: String
    }

    package let model: Model
    package let store: Store
    package let limit: WriteConfig.DeleteLimit

    package init(model: Model, store: Store, limit: WriteConfig.DeleteLimit) {
        self.model = model
        self.store = store
        self.limit = limit
    }

    /// Deletes the stored items of `entities` for which `isInInput` is false, and commits; with
    /// `preview`, only says what it would delete (`importer validate`). Items a record of the
    /// input names (even a rejected one) must count as in the input: a bad row must never
    /// delete the item it meant to update.
    /// With `inScope`, only the stored items it takes can vanish (the children of the parents a
    /// run loaded from documents, docs/documents.md#re-loading).
    /// `candidates`, when given, reads the items that may vanish instead of a scan of each entity.
    /// `beforeCommit` is given what was deleted before it is committed, to save with it.
    /// `beforeApplying` is given what the plan will delete before the first delete (a store that
    /// cannot roll back saves it, so that a run resuming after a kill knows what was begun), and
    /// `interruptedPlan` is what the interrupted run's phase was given so (deletes.ndjson's
    /// lines): what of it this plan no longer finds was made then, and is reported with it.
    package func run(
        entities: [Entity], preview: Bool = false, inScope: ((Entity, [Value]) throws -> Bool)? = nil,
        candidates: ((Entity, ([Value]) throws -> Void) throws -> Void)? = nil,
        isInInput: @escaping (Entity, Value) throws -> Bool, beforeApplying: ((Outcome) throws -> Void)? = nil,
        interruptedPlan: String? = nil, beforeCommit: ((Outcome) throws -> Void)? = nil
    ) throws -> Outcome {
        var vanished: [String: [[Value]]] = [:]
        var stored: [String: Int] = [:]
        let read = candidates ?? { entity, body in try store.scan(entity, body) }
        for entity in entities {
            try read(entity) { item in
                stored[entity.name, default: 0] += 1
                if try inScope?(entity, item) ?? true, try !isInInput(entity, entity.key(of: item)) {
                    vanished[entity.name, default: []].append(item)
                }
            }
        }
        var outcome = Outcome()
        if let refusal = exceeded(vanished.mapValues(\.count), stored: stored) {
            outcome.refused = refusal
            return outcome
        }
        let plan = try DeletePlan.make(model: model, store: store, requested: vanished, isProtected: isInInput)
        for entity in model.entities where plan.deletionCounts[entity.name] != nil && stored[entity.name] == nil {
            stored[entity.name] = try store.count(of: entity)
        }
        if let refusal = exceeded(plan.deletionCounts, stored: stored) {
            outcome.refused = refusal
            return outcome
        }
        if preview {
            outcome.deleted = plan.deletions
            outcome.nullified = plan.nullifications
            outcome.denied = plan.denials
            return outcome
        }
        var planned = outcome
        (planned.deleted, planned.nullified, planned.denied) = (plan.deletions, plan.nullifications, plan.denials)
        if let interruptedPlan { planned.madeBefore = Self.made(by: interruptedPlan, before: planned) }
        try beforeApplying?(planned)
        let changed = try plan.apply(to: store, model: model)
        let kept = Set(changed.map { DeletePlan.ItemReference(entity: $0.entity, key: $0.key) })
        outcome.deleted = plan.deletions.filter { !kept.contains(.init(entity: $0.entity, key: $0.key)) }
        outcome.nullified = plan.nullifications
        outcome.denied = plan.denials + changed
        outcome.madeBefore = planned.madeBefore
        try beforeCommit?(outcome)
        try store.commit()
        return outcome
    }

    /// The deletes and nullifications of `interruptedPlan` (deletes.ndjson's lines) that were
    /// made before its run was stopped: those `plan` (this run's, made after them) no longer
    /// holds. An item this run keeps (a `deny` rule) was not deleted then.
    private static func made(by interruptedPlan: String, before plan: Outcome) -> [MadeBefore] {
        let planned = Set(DeletesFile.lines(of: plan).split(separator: "\n"))
        let kept = plan.denied.map { DeletesFile.linePrefix(entity: $0.entity, key: $0.key) }
        return interruptedPlan.split(separator: "\n").compactMap { line in
            guard !planned.contains(line), !kept.contains(where: { line.hasPrefix($0) }),
                let fields = DeletesFile.fields(of: line)
            else { return nil }
            return MadeBefore(entity: fields.entity, deleted: fields.action == "delete", line: String(line))
        }
    }

    /// The refusal message when `deletions` exceed the limit for some entity.
    private func exceeded(_ deletions: [String: Int], stored: [String: Int]) -> String? {
        for entityName in model.parentsFirstOrder {
            guard let count = deletions[entityName], count > 0 else { continue }
            let total = stored[entityName] ?? 0
            switch limit {
            case .count(let maximum) where count > maximum:
                return
                    "sync would delete \(count) of \(total) stored \(entityName) items, more than write.maxDeletes (\(maximum)); nothing was deleted. Check the input is complete, or raise maxDeletes"
            case .percent(let maximum) where Double(count) > Double(total) * maximum / 100:
                let share = String(format: "%.1f%%", Double(count) * 100 / Double(max(total, 1)))
                return
                    "sync would delete \(count) of \(total) stored \(entityName) items (\(share)), more than write.maxDeletes (\(maximum.compactText)%); nothing was deleted. Check the input is complete, or raise maxDeletes"
            default: continue
            }
        }
        return nil
    }
}
