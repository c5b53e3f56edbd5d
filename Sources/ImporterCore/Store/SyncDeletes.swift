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
    package func run(
        entities: [Entity], preview: Bool = false, inScope: ((Entity, [Value]) throws -> Bool)? = nil,
        candidates: ((Entity, ([Value]) throws -> Void) throws -> Void)? = nil,
        isInInput: @escaping (Entity, Value) throws -> Bool, beforeCommit: ((Outcome) throws -> Void)? = nil
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
        let changed = try plan.apply(to: store, model: model)
        let kept = Set(changed.map { DeletePlan.ItemReference(entity: $0.entity, key: $0.key) })
        outcome.deleted = plan.deletions.filter { !kept.contains(.init(entity: $0.entity, key: $0.key)) }
        outcome.nullified = plan.nullifications
        outcome.denied = plan.denials + changed
        try beforeCommit?(outcome)
        try store.commit()
        return outcome
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
