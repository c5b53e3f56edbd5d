/// The entities of a file of documents (docs/infer.md#documents): one per array of objects,
/// keyed by an id of their own, else by their parent's key and their position, with the
/// relationships their nesting makes.
extension ModelInference {
    /// Adds an entity for each array of `children`, under the entity at `parent`, depth first.
    static func addChildren(
        _ children: [ChildProfile], of parent: Int, to entities: inout [InferredEntity], names: inout Set<String>,
        computesKeys: Bool
    ) throws {
        for child in children where child.profile.records > 0 {
            let name = Identifiers.unique(
                Identifiers.entityName(forFile: child.arrayPath.last! + ".x"), in: names)
            names.insert(name.lowercased())
            var builder = EntityBuilder(profile: child.profile)
            var entity = namingMongoID(builder.build(name: name))
            entity.notes.insert(
                "the elements of '\(child.arrayPath.joined(separator: "."))' in each \(entities[parent].name)", at: 0)
            let position: String?
            (entity, position) = try keyed(entity, under: entities[parent], computesKeys: computesKeys)
            entity.nesting = Nesting(parent: parent, arrayPath: child.arrayPath, relationship: "", position: position)
            entities.append(entity)
            try addChildren(
                child.profile.children, of: entities.count - 1, to: &entities, names: &names, computesKeys: computesKeys
            )
        }
    }

    /// MongoDB's `_id` as `<entity>Id` (`_id` of Adjustment → `adjustmentId`), when free.
    static func namingMongoID(_ entity: InferredEntity) -> InferredEntity {
        var entity = entity
        guard let index = entity.attributes.firstIndex(where: { $0.field == "_id" && $0.name == "_id" }) else {
            return entity
        }
        let name = entity.name.prefix(1).lowercased() + entity.name.dropFirst() + "Id"
        guard !entity.attributes.contains(where: { $0.name.lowercased() == name.lowercased() }) else { return entity }
        entity.attributes[index].name = name
        return entity
    }

    /// A child's key: an id-like attribute of its own, unique and never null; else its parent's
    /// key and its position in the array (when the parent's key is one attribute); else what a
    /// file's records get. The parent's key attributes are added (filled from the parent).
    /// Returns the position attribute's name when the child is keyed by it.
    private static func keyed(_ entity: InferredEntity, under parent: InferredEntity, computesKeys: Bool) throws
        -> (InferredEntity, position: String?)
    {
        var entity = entity
        guard let parentKey = parent.keyAttributes else {
            entity.notes.append("its parent \(parent.name) has no key yet: name one, then relate \(entity.name) to it")
            return (try withKey(entity, computesKeys: computesKeys), nil)
        }
        let parentAttributes = [parentKey.hash] + (parentKey.range.map { [$0] } ?? [])
        for name in parentAttributes {
            let type = parent.attribute(named: name)!.type
            if let own = entity.attributes.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) {
                entity.attributes[own].type = type
                entity.attributes[own].required = true
                entity.attributes[own].notes.append("set from the \(parent.name)'s key when loaded")
            } else {
                entity.attributes.append(
                    InferredAttribute(
                        name: name, field: nil, column: nil, type: type, required: true,
                        notes: ["the \(parent.name)'s key, set when loaded"]))
            }
        }
        if let id = ownID(entity) {
            entity.key = .single(attribute: id)
            entity.notes.append(
                "key: \(entity.attributes[id].name), its own id, unique and never null \(scope(entity.profile))")
            return (withVersion(entity), nil)
        }
        guard parentKey.range == nil else {
            entity.notes.append(
                "no id of its own, and its parent \(parent.name)'s key has two parts, so parent and position cannot key it"
            )
            return (try withKey(entity, computesKeys: computesKeys), nil)
        }
        let taken = Set(entity.attributes.map { $0.name.lowercased() })
        let position = Identifiers.unique(
            entity.name.prefix(1).lowercased() + entity.name.dropFirst() + "No", in: taken)
        entity.attributes.append(
            InferredAttribute(
                name: position, field: nil, column: nil, type: .int32, required: true,
                notes: ["the element's 0-based position in its array, set when loaded"]))
        let hash = entity.attributes.firstIndex { $0.name.lowercased() == parentKey.hash.lowercased() }!
        entity.key = .pair(hash: hash, range: entity.attributes.count - 1)
        entity.notes.append(
            "no id of its own: keyed by its \(parent.name)'s \(parentKey.hash) and \(position), its position in the array"
        )
        return (withVersion(entity), position)
    }

    /// An attribute named as the element's own id (`_id`, `id`, `uuid`, `townId` in Town),
    /// unique and never null. Other id-like names (`sku`, `productId`) name what an element
    /// refers to, and are unique in a small dump by chance.
    private static func ownID(_ entity: InferredEntity) -> Int? {
        let entityName = Identifiers.folded(entity.name)
        let names: Set<String> = ["id", "uuid", "guid", entityName + "id", entityName + "uuid"]
        return entity.attributes.indices.first { index in
            let attribute = entity.attributes[index]
            guard let column = attribute.column, attribute.required,
                attribute.field == "_id" || names.contains(Identifiers.folded(attribute.name)),
                [.string, .uuid, .int16, .int32, .int64].contains(attribute.type)
            else { return false }
            return HashSet64.allDistinct(entity.profile.columns[column].hashes, count: entity.profile.records)
        }
    }

    private static func scope(_ profile: FileProfile) -> String {
        profile.sampled ? "in the first \(profile.records) elements" : "in all \(profile.records) elements"
    }

    /// The relationships of the documents' nesting: each child's to-one to its parent (on the
    /// parent's key attributes) and the parent's to-many to it (cascading deletes, as replacing
    /// a document's children does). A relationship suggested on those key attributes is dropped.
    static func relateNesting(_ entities: [InferredEntity]) -> [InferredEntity] {
        var entities = entities
        for index in entities.indices {
            guard let nesting = entities[index].nesting else { continue }
            let parent = entities[nesting.parent]
            guard let parentKey = parent.keyAttributes else { continue }
            var child = entities[index]
            let hash = child.attributes.firstIndex { $0.name == parentKey.hash }!
            let range = parentKey.range.map { name in child.attributes.firstIndex { $0.name == name }! }
            child.relationships.removeAll { $0.attribute == hash || $0.attribute == range }
            // The types the parent's key has once references widened it.
            child.attributes[hash].type = parent.attribute(named: parentKey.hash)!.type
            if let range, let name = parentKey.range {
                child.attributes[range].type = parent.attribute(named: name)!.type
            }
            let toOne = Identifiers.unique(
                parent.name.prefix(1).lowercased() + parent.name.dropFirst(), in: takenNames(child))
            let toMany = Identifiers.unique(
                Identifiers.attributeName(forField: nesting.arrayPath.last!, position: 0), in: takenNames(parent))
            child.relationships.append(
                InferredRelationship(
                    name: toOne, destination: parent.name, attribute: hash, values: child.profile.records,
                    found: child.profile.records, rangeAttribute: range, inverse: toMany))
            child.nesting?.relationship = toOne
            entities[index] = child
            entities[nesting.parent].relationships.append(
                InferredRelationship(
                    name: toMany, destination: child.name, attribute: 0, values: 0, found: 0, inverse: toOne,
                    toMany: true))
        }
        return entities
    }

    private static func takenNames(_ entity: InferredEntity) -> Set<String> {
        Set(
            (entity.attributes.map(\.name) + entity.relationships.map(\.name) + [entity.versionAttribute]).map {
                $0.lowercased()
            })
    }
}
