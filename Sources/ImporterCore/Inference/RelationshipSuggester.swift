/// Suggests to-one relationships: a column whose values are mostly (at least `minimumShare`)
/// found among the keys of another entity with a one-column key, of the same type (integer
/// types are widened to match). An integer column must also be named after the destination
/// (`locationId`, `location`, or the destination key's own name), as small numbers match any
/// integer key. A column that is its entity's own hash key needs such a name too. Each column
/// gets its best destination; a suggestion that would close a cycle is left out; an entity does
/// not reference itself.
struct RelationshipSuggester {
    static let minimumShare = 0.5

    var entities: [InferredEntity]

    private struct Candidate {
        var entity: Int
        var attribute: Int
        var destination: Int
        var values: Int
        var found: Int
        var named: Bool
        var share: Double { Double(found) / Double(values) }
    }

    /// The entities with their relationships added.
    mutating func suggest() -> [InferredEntity] {
        guard entities.count > 1 else { return entities }
        let keySets = entities.map(keySet)
        var candidates: [Candidate] = []
        for entity in entities.indices {
            for attribute in entities[entity].attributes.indices {
                if let best = best(entity, attribute, keySets) { candidates.append(best) }
            }
        }
        candidates.sort { ($0.named ? 1 : 0, $0.share) > ($1.named ? 1 : 0, $1.share) }
        var edges: [Int: Set<Int>] = [:]
        for candidate in candidates where !reaches(candidate.destination, candidate.entity, edges) {
            edges[candidate.entity, default: []].insert(candidate.destination)
            add(candidate)
        }
        widenIntegers()
        return entities
    }

    /// The key values of an entity with a one-column key, and the key's attribute.
    private func keySet(_ entity: InferredEntity) -> (set: HashSet64, attribute: Int)? {
        guard case .single(let index) = entity.key, let column = entity.attributes[index].column else { return nil }
        let hashes = entity.profile.columns[column].hashes
        var set = HashSet64(capacity: hashes.count)
        for hash in hashes where hash != KeyHash.null { set.insert(hash) }
        return (set, index)
    }

    private func best(_ entity: Int, _ attribute: Int, _ keySets: [(set: HashSet64, attribute: Int)?]) -> Candidate? {
        let source = entities[entity].attributes[attribute]
        guard let column = source.column, [.string, .uuid, .int16, .int32, .int64].contains(source.type) else {
            return nil
        }
        var isOwnKey = false
        if case .single(let own) = entities[entity].key { isOwnKey = own == attribute }
        var best: Candidate?
        for destination in entities.indices where destination != entity {
            guard let (set, keyIndex) = keySets[destination] else { continue }
            let key = entities[destination].attributes[keyIndex]
            guard key.type == source.type || (key.type.isInteger && source.type.isInteger) else { continue }
            let named = Self.named(source.name, after: entities[destination].name, key: key.name)
            guard named || (!source.type.isInteger && !isOwnKey) else { continue }
            var values = 0, found = 0
            for hash in entities[entity].profile.columns[column].hashes where hash != KeyHash.null {
                values += 1
                if set.contains(hash) { found += 1 }
            }
            guard values > 0 else { continue }
            let candidate = Candidate(
                entity: entity, attribute: attribute, destination: destination, values: values, found: found,
                named: named)
            guard candidate.share >= Self.minimumShare else { continue }
            if best.map({ ($0.named ? 1 : 0, $0.share) < (named ? 1 : 0, candidate.share) }) ?? true {
                best = candidate
            }
        }
        return best
    }

    /// `stationId`, `station_id`, `station` or `StationKey` for Station; its key's own name
    /// unless that is generic (`id`, `key`, `code`, `uuid`, `name`).
    static func named(_ column: String, after entity: String, key: String) -> Bool {
        let c = Identifiers.folded(column), k = Identifiers.folded(key)
        var names: Set<String> = []
        for e in [Identifiers.folded(entity), Identifiers.folded(Identifiers.singular(entity))] {
            names.formUnion([e, e + "id", e + "key", e + k])
        }
        if !["id", "key", "code", "uuid", "guid", "name"].contains(k) { names.insert(k) }
        return names.contains(c)
    }

    private func reaches(_ from: Int, _ to: Int, _ edges: [Int: Set<Int>]) -> Bool {
        var stack = [from], visited = Set<Int>()
        while let node = stack.popLast() {
            if node == to { return true }
            guard visited.insert(node).inserted else { continue }
            stack.append(contentsOf: edges[node] ?? [])
        }
        return false
    }

    private mutating func add(_ candidate: Candidate) {
        var entity = entities[candidate.entity]
        var taken = Set(
            entity.attributes.map { $0.name.lowercased() } + entity.relationships.map { $0.name.lowercased() })
        taken.insert(entity.versionAttribute.lowercased())
        let destination = entities[candidate.destination].name
        let natural = destination.prefix(1).lowercased() + destination.dropFirst()
        let attribute = entity.attributes[candidate.attribute].name
        if attribute == natural, !taken.contains(natural.lowercased() + "id") {
            // `store` holds a Store's key: the attribute becomes `storeId`, the relationship `store`.
            entity.attributes[candidate.attribute].name = attribute + "Id"
            taken.insert(natural.lowercased() + "id")
            taken.remove(natural.lowercased())
        }
        let name = Identifiers.unique(
            Self.relationshipName(entity.attributes[candidate.attribute].name, destination: destination, taken: taken),
            in: taken)
        entity.relationships.append(
            InferredRelationship(
                name: name, destination: destination, attribute: candidate.attribute,
                values: candidate.values, found: candidate.found))
        entities[candidate.entity] = entity
    }

    /// `stationId` → `station`; else the destination's name in lower camel case; else `…Ref`.
    static func relationshipName(_ attribute: String, destination: String, taken: Set<String>) -> String {
        for suffix in ["Id", "ID", "_id", "_ID", "Key", "_key", "Uuid", "_uuid"]
        where attribute.hasSuffix(suffix) && attribute.count > suffix.count {
            let base = String(attribute.dropLast(suffix.count))
            if ModelChecks.isValidName(base), !taken.contains(base.lowercased()) { return base }
        }
        let lowered = destination.prefix(1).lowercased() + destination.dropFirst()
        if ModelChecks.isValidName(lowered), !taken.contains(lowered.lowercased()) { return lowered }
        return attribute + "Ref"
    }

    /// A reference and its destination key must have one type: integers become the wider.
    private mutating func widenIntegers() {
        for _ in 0..<entities.count {
            var changed = false
            for entity in entities.indices {
                for relationship in entities[entity].relationships {
                    guard let destination = entities.firstIndex(where: { $0.name == relationship.destination }),
                        case .single(let keyIndex) = entities[destination].key
                    else { continue }
                    let own = entities[entity].attributes[relationship.attribute].type,
                        key = entities[destination].attributes[keyIndex].type
                    guard own != key, own.isInteger, key.isInteger else { continue }
                    let wider = [own, key].max {
                        $0.attributeType.integerRange!.upperBound < $1.attributeType.integerRange!.upperBound
                    }!
                    entities[entity].attributes[relationship.attribute].type = wider
                    entities[destination].attributes[keyIndex].type = wider
                    changed = true
                }
            }
            if !changed { return }
        }
    }
}
