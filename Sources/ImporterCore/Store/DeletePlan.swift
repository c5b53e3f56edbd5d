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
        model: Model, store: any StoreReading, requested: [String: [[Value]]],
        isProtected: @escaping (Entity, Value) throws -> Bool = { _, _ in false }
    ) throws -> DeletePlan {
        var planner = Planner(model: model, isProtected: isProtected)
        var level = planner.start(requested)
        while !level.isEmpty {
            level = try planner.nextLevel(level) { lookup in
                var dependants: [[Value]] = []
                try store.scan(lookup.dependantEntity) { if lookup.matches($0) { dependants.append($0) } }
                return dependants
            }
        }
        return planner.finish()
    }

    /// `make(model:store:requested:)` for the library's calls, its reads awaited.
    package static func make(model: Model, access: any ItemAccess, requested: [String: [[Value]]]) async throws
        -> DeletePlan
    {
        var planner = Planner(model: model, isProtected: { _, _ in false })
        var level = planner.start(requested)
        while !level.isEmpty {
            var found: [Planner.Lookup: [[Value]]] = [:]
            for lookup in planner.lookups(level) {
                found[lookup] = try await access.items(of: lookup.dependantEntity, where: { lookup.matches($0) })
            }
            level = try planner.nextLevel(level) { found[$0] ?? [] }
        }
        return planner.finish()
    }

    /// Applies the plan inside the store's open transaction (the caller commits). Items changed
    /// since they were planned are not touched; they are returned as denials.
    package func apply(to store: any BatchWriting & ItemDeleting, model: Model) throws -> [Denial] {
        var changed: [Denial] = []
        for nullification in nullifications {
            let (entity, record, rules) = nullification.write(in: model)
            if case .updated = try store.write([record], of: entity, rules: rules)[0].result { continue }
            changed.append(nullification.changed(entity))
        }
        // Children first: a dependant never outlives its parent, even for a moment.
        for deletion in deletions.reversed() {
            let entity = model.entity(named: deletion.entity)!
            if try !store.delete(deletion.key, expectedVersion: deletion.version, of: entity) {
                changed.append(deletion.changed)
            }
        }
        return changed
    }

    /// `apply(to:model:)` for the library's calls, awaited.
    package func apply(to access: any ItemAccess, model: Model) async throws -> [Denial] {
        var changed: [Denial] = []
        for nullification in nullifications {
            let (entity, record, rules) = nullification.write(in: model)
            if case .updated = try await access.writeItems([record], of: entity, rules: rules)[0].result { continue }
            changed.append(nullification.changed(entity))
        }
        for deletion in deletions.reversed() {
            let entity = model.entity(named: deletion.entity)!
            if try await !access.deleteItem(deletion.key, expectedVersion: deletion.version, of: entity) {
                changed.append(deletion.changed)
            }
        }
        return changed
    }
}

extension DeletePlan.Nullification {
    /// The update that clears the keys: based on the stored version, so version + 1, or a
    /// conflict if someone changed the item since it was planned.
    fileprivate func write(in model: Model) -> (Entity, PreparedRecord, VersionRules) {
        let entity = model.entity(named: self.entity)!
        var values = item
        for attribute in attributes { values[entity.attributeIndex[attribute]!] = .null }
        let record = PreparedRecord(inputIndex: 0, line: 0, byteOffset: 0, raw: [], values: values)
        return (entity, record, VersionRules(entity: entity, write: WriteConfig()))
    }

    /// The denial of a nullification another writer got in before.
    fileprivate func changed(_ entity: Entity) -> DeletePlan.Denial {
        DeletePlan.Denial(
            entity: entity.name, key: key,
            message: "changed by another writer while it was being nullified; left as it is")
    }
}

extension DeletePlan.Deletion {
    /// The denial of a deletion another writer got in before.
    fileprivate var changed: DeletePlan.Denial {
        DeletePlan.Denial(
            entity: entity, key: key,
            message: "changed by another writer (or gone) since version \(version); not deleted")
    }
}

/// Walks the delete rules level by level: one scan of a dependant entity per level and
/// relationship (a `Lookup`, which the caller makes) finds every dependant of that level's
/// deleted items.
private struct Planner {
    let model: Model
    let isProtected: (Entity, Value) throws -> Bool

    /// The dependants of one level's deleted items through one relationship: the items of
    /// `dependantEntity` whose key to the parent is one of `parentKeys`.
    struct Lookup: Hashable, Sendable {
        let parentEntity: String
        let relationship: String
        let dependantEntity: Entity
        let keyIndices: [Int]
        let parentKeys: Set<Value>

        func parentKey(_ item: [Value]) -> Value { Value.key(item, at: keyIndices) }
        func matches(_ item: [Value]) -> Bool { parentKeys.contains(parentKey(item)) }

        static func == (a: Lookup, b: Lookup) -> Bool {
            a.parentEntity == b.parentEntity && a.relationship == b.relationship
        }
        func hash(into hasher: inout Hasher) {
            hasher.combine(parentEntity)
            hasher.combine(relationship)
        }
    }

    /// Every planned item, with the requested item (root) it descends from.
    private var roots: [DeletePlan.ItemReference: DeletePlan.ItemReference] = [:]
    private var deniedRoots: [DeletePlan.ItemReference: String] = [:]
    private var deletions: [(DeletePlan.Deletion, root: DeletePlan.ItemReference)] = []
    private var nullifications:
        [(DeletePlan.Nullification, key: DeletePlan.ItemReference, root: DeletePlan.ItemReference)] = []

    init(model: Model, isProtected: @escaping (Entity, Value) throws -> Bool) {
        self.model = model
        self.isProtected = isProtected
    }

    /// The first level: the requested items, parents first.
    mutating func start(_ requested: [String: [[Value]]]) -> [String: [[Value]]] {
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
        return level
    }

    /// The plan, once no level is left: the deletions and nullifications of roots not denied.
    func finish() -> DeletePlan {
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

    /// What finding the dependants of `items` (per entity) needs read: one lookup per
    /// relationship whose dependants hold the key.
    func lookups(_ items: [String: [[Value]]]) -> [Lookup] {
        items.flatMap { entityName, parents -> [Lookup] in
            let parentEntity = model.entity(named: entityName)!
            let parentKeys = Set(parents.map { parentEntity.key(of: $0) })
            return parentEntity.relationships.compactMap { relationship in
                // The dependants hold the key, in the inverse (to-one) relationship's attribute.
                guard relationship.keys.isEmpty, let dependantEntity = model.entity(named: relationship.destination),
                    let inverse = dependantEntity.relationships.first(where: { $0.name == relationship.inverse }),
                    !inverse.keys.isEmpty
                else { return nil }
                return Lookup(
                    parentEntity: entityName, relationship: relationship.name, dependantEntity: dependantEntity,
                    keyIndices: inverse.keys.map { dependantEntity.attributeIndex[$0]! }, parentKeys: parentKeys)
            }
        }
    }

    /// Applies the delete rules of `items` (per entity), with the dependants `find` reads for
    /// each of `lookups(items)`, and returns the items cascaded to.
    mutating func nextLevel(_ items: [String: [[Value]]], find: (Lookup) throws -> [[Value]]) throws
        -> [String: [[Value]]]
    {
        var next: [String: [[Value]]] = [:]
        for lookup in lookups(items) {
            let entityName = lookup.parentEntity
            let parentEntity = model.entity(named: entityName)!
            let relationship = parentEntity.relationships.first { $0.name == lookup.relationship }!
            let dependantEntity = lookup.dependantEntity
            let inverse = dependantEntity.relationships.first { $0.name == relationship.inverse }!
            let keyName = inverse.keys.joined(separator: ", ")
            for dependant in try find(lookup) {
                let parent = DeletePlan.ItemReference(entity: entityName, key: lookup.parentKey(dependant))
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
                    if lookup.keyIndices.contains(where: {
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
