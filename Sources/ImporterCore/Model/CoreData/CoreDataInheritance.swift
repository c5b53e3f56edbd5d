/// Core Data's entity inheritance, flattened (docs/coredata.md): a sub-entity holds its ancestors'
/// attributes (theirs first), userInfo (its own entries win) and to-one relationships;
/// abstract entities have no items and are not entities of the result.
enum CoreDataInheritance {
    static func flatten(_ entities: [CoreDataEntity], warnings: inout [ModelWarning]) throws -> [CoreDataEntity] {
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
        var result: [CoreDataEntity] = []
        for entity in entities where !entity.isAbstract {
            var flat = entity
            var ancestor = entity.parent
            var seen: Set<String> = [entity.name]
            while let parentName = ancestor {
                guard let parent = byName[parentName] else {
                    throw entity.place.error(
                        "parent entity '\(parentName)' of \(entity.name) is not an entity of this model")
                }
                guard seen.insert(parentName).inserted else {
                    throw entity.place.error("the parent entities of \(entity.name) form a cycle through \(parentName)")
                }
                try inherit(from: parent, into: &flat, warnings: &warnings)
                ancestor = parent.parent
            }
            result.append(flat)
        }
        for entity in result {
            for relationship in entity.relationships where byName[relationship.destination]?.isAbstract == true {
                throw relationship.place.error(
                    "destination \(relationship.destination) is abstract and has no items of its own; point \(entity.name).\(relationship.name) at one of its sub-entities"
                )
            }
        }
        return result
    }

    private static func inherit(
        from parent: CoreDataEntity, into entity: inout CoreDataEntity,
        warnings: inout [ModelWarning]
    ) throws {
        for attribute in parent.attributes where entity.attributes.contains(where: { $0.name == attribute.name }) {
            throw entity.place.error(
                "\(entity.name) declares '\(attribute.name)', which it inherits from \(parent.name)")
        }
        entity.attributes = parent.attributes + entity.attributes
        entity.info.merge(parent.info) { own, _ in own }
        var inherited: [CoreDataEntity.DeclaredRelationship] = []
        for relationship in parent.relationships {
            if relationship.toMany {
                warnings.append(
                    ModelWarning(
                        file: relationship.place.file, line: relationship.place.line,
                        message:
                            "\(entity.name) does not inherit the to-many \(parent.name).\(relationship.name): its inverse points at \(parent.name)"
                    ))
                continue
            }
            // The destination's inverse points at the parent, so the sub-entity's copy has none.
            inherited.append(
                .init(
                    name: relationship.name, destination: relationship.destination, toMany: false, inverse: nil,
                    deleteRule: relationship.deleteRule, key: relationship.key, place: relationship.place))
        }
        entity.relationships = inherited + entity.relationships
    }
}
