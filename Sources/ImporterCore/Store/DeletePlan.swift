/// Deleting items the way Core Data does, for any store: the delete rules of the deleted items'
/// relationships decide what happens to their dependants — `cascade` deletes them too,
/// `nullify` clears the key that points at the deleted item, `deny` refuses the delete.
///
/// A plan is made completely before anything is written, so a refused delete (or a delete
/// limit) never leaves half of a cascade behind.
package struct DeletePlan: Sendable {
    /// An item to delete, and why.
    package struct Deletion: Sendable {
        package let entity: String
        package let key: Value
        package let version: Int64
        /// nil for a requested delete; otherwise the item whose `cascade` rule reached this one.
        package let cascadedFrom: ItemReference?
    }

    /// A dependant whose key to a deleted item is cleared (`nullify`); it gets version + 1.
    package struct Nullification: Sendable {
        package let entity: String
        package let key: Value
        package let item: [Value]
        /// The attributes cleared: those holding the deleted parent's key.
        package let attributes: [String]

        /// The attributes cleared, for reports (`stationId, hour`).
        package var attribute: String { attributes.joined(separator: ", ") }
    }

    /// A requested delete that was refused, with everything it would have reached.
    package struct Denial: Sendable {
        package let entity: String
        package let key: Value
        package let message: String
    }

    package struct ItemReference: Sendable, Hashable {
        package let entity: String
        package let key: Value
    }

    package internal(set) var deletions: [Deletion] = []
    package internal(set) var nullifications: [Nullification] = []
    package internal(set) var denials: [Denial] = []

    /// Deletions per entity name.
    package var deletionCounts: [String: Int] {
        deletions.reduce(into: [:]) { $0[$1.entity, default: 0] += 1 }
    }

    /// Plans deleting `requested` (whole stored items, per entity name) and everything their
    /// delete rules reach. `isProtected` names items that must stay (sync: items in this run's
    /// input); reaching one by `cascade` refuses the requested delete, like `deny`.
    package static func make(
        model: Model, store: Store, requested: [String: [[Value]]],
        isProtected: @escaping (Entity, Value) throws -> Bool = { _, _ in false }
    ) throws -> DeletePlan {
        var planner = Planner(model: model, store: store, isProtected: isProtected)
        return try planner.plan(requested)
    }

    /// Applies the plan inside the store's open transaction (the caller commits). Items changed
    /// since they were planned are not touched; they are returned as denials.
    package func apply(to store: Store, model: Model) throws -> [Denial] {
        var changed: [Denial] = []
        // Each nullification is an update based on the stored version: version + 1, or a
        // conflict if someone changed the item since it was planned.
        let write = WriteConfig()
        for nullification in nullifications {
            let entity = model.entity(named: nullification.entity)!
            var values = nullification.item
            for attribute in nullification.attributes { values[entity.attributeIndex[attribute]!] = .null }
            let record = PreparedRecord(inputIndex: 0, line: 0, byteOffset: 0, raw: [], values: values)
            let outcome = try store.write([record], of: entity, rules: VersionRules(entity: entity, write: write))
            if case .updated = outcome[0].result { continue }
            changed.append(
                Denial(
                    entity: entity.name, key: entity.key(of: values),
                    message: "changed by another writer while it was being nullified; left as it is"))
        }
        // Children first: a dependant never outlives its parent, even for a moment.
        for deletion in deletions.reversed() {
            let entity = model.entity(named: deletion.entity)!
            if try !store.delete(deletion.key, expectedVersion: deletion.version, of: entity) {
                changed.append(
                    Denial(
                        entity: entity.name, key: deletion.key,
                        message: "changed by another writer (or gone) since version \(deletion.version); not deleted"))
            }
        }
        return changed
    }
}

/// Walks the delete rules level by level: one scan of a dependant entity per level finds every
/// dependant of that level's deleted items.
private struct Planner {
    let model: Model
    let store: Store
    let isProtected: (Entity, Value) throws -> Bool

    /// Every planned item, with the requested item (root) it descends from.
    private var roots: [DeletePlan.ItemReference: DeletePlan.ItemReference] = [:]
    private var deniedRoots: [DeletePlan.ItemReference: String] = [:]
    private var deletions: [(DeletePlan.Deletion, root: DeletePlan.ItemReference)] = []
    private var nullifications:
        [(DeletePlan.Nullification, key: DeletePlan.ItemReference, root: DeletePlan.ItemReference)] = []

    init(model: Model, store: Store, isProtected: @escaping (Entity, Value) throws -> Bool) {
        self.model = model
        self.store = store
        self.isProtected = isProtected
    }

    mutating func plan(_ requested: [String: [[Value]]]) throws -> DeletePlan {
        var level: [String: [[Value]]] = [:]
        for entityName in model.parentsFirstOrder {
            guard let items = requested[entityName], let entity = model.entity(named: entityName) else { continue }
            for item in items {
                let reference = DeletePlan.ItemReference(entity: entityName, key: entity.key(of: item))
                guard roots[reference] == nil else { continue }
                roots[reference] = reference
                deletions.append((deletion(item, entity, from: nil), reference))
                level[entityName, default: []].append(item)
            }
        }
        while !level.isEmpty {
            level = try nextLevel(level)
        }
        var plan = DeletePlan()
        for (deletion, root) in deletions where deniedRoots[root] == nil { plan.deletions.append(deletion) }
        let deleted = Set(plan.deletions.map { DeletePlan.ItemReference(entity: $0.entity, key: $0.key) })
        for (nullification, key, root) in nullifications where deniedRoots[root] == nil && !deleted.contains(key) {
            plan.nullifications.append(nullification)
        }
        for (root, message) in deniedRoots.sorted(by: { "\($0.key.key)" < "\($1.key.key)" }) {
            plan.denials.append(.init(entity: root.entity, key: root.key, message: message))
        }
        return plan
    }

    /// Applies the delete rules of `items` (per entity) and returns the items cascaded to.
    private mutating func nextLevel(_ items: [String: [[Value]]]) throws -> [String: [[Value]]] {
        var next: [String: [[Value]]] = [:]
        for (entityName, parents) in items {
            let parentEntity = model.entity(named: entityName)!
            let parentKeys = Set(parents.map { parentEntity.key(of: $0) })
            for relationship in parentEntity.relationships where relationship.keys.isEmpty {
                // The dependants hold the key, in the inverse (to-one) relationship's attribute.
                guard let dependantEntity = model.entity(named: relationship.destination),
                    let inverse = dependantEntity.relationships.first(where: { $0.name == relationship.inverse }),
                    !inverse.keys.isEmpty
                else { continue }
                let keyIndices = inverse.keys.map { dependantEntity.attributeIndex[$0]! }
                let keyName = inverse.keys.joined(separator: ", ")
                func parentKey(_ item: [Value]) -> Value { Value.key(item, at: keyIndices) }
                var dependants: [[Value]] = []
                try store.scan(dependantEntity) { item in
                    if parentKeys.contains(parentKey(item)) { dependants.append(item) }
                }
                for dependant in dependants {
                    let parent = DeletePlan.ItemReference(entity: entityName, key: parentKey(dependant))
                    let root = roots[parent]!
                    let reference = DeletePlan.ItemReference(
                        entity: dependantEntity.name, key: dependantEntity.key(of: dependant))
                    let described = "\(dependantEntity.name) '\(reference.key)'"
                    switch relationship.deleteRule {
                    case .deny:
                        deny(
                            root,
                            "\(described) still refers to \(entityName) '\(parent.key)' and \(entityName).\(relationship.name) has deleteRule deny"
                        )
                    case .nullify:
                        if keyIndices.contains(where: {
                            dependantEntity.attributes[$0].required || dependantEntity.keyIndices.contains($0)
                        }) {
                            deny(
                                root,
                                "\(described) would lose its required \(keyName) (deleteRule nullify on \(entityName).\(relationship.name)); delete or re-point it first"
                            )
                        } else {
                            nullifications.append(
                                (
                                    .init(
                                        entity: dependantEntity.name, key: reference.key, item: dependant,
                                        attributes: inverse.keys), reference, root
                                ))
                        }
                    case .cascade:
                        if try isProtected(dependantEntity, reference.key) {
                            deny(
                                root,
                                "\(described) would be deleted with it (deleteRule cascade), but it is in this run's input"
                            )
                        } else if roots[reference] == nil {
                            roots[reference] = root
                            deletions.append((deletion(dependant, dependantEntity, from: parent), root))
                            next[dependantEntity.name, default: []].append(dependant)
                        }
                    }
                }
            }
        }
        return next
    }

    private mutating func deny(_ root: DeletePlan.ItemReference, _ message: String) {
        if deniedRoots[root] == nil { deniedRoots[root] = "not deleted: " + message }
    }

    private func deletion(_ item: [Value], _ entity: Entity, from parent: DeletePlan.ItemReference?)
        -> DeletePlan.Deletion
    {
        DeletePlan.Deletion(
            entity: entity.name, key: entity.key(of: item),
            version: item[entity.versionIndex].integerValue ?? 0, cascadedFrom: parent)
    }
}
