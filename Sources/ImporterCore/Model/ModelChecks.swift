/// The checks every model passes whatever file it came from: keys, the version attribute,
/// relationships, tables; and its checksum.
enum ModelChecks {
    /// A checked model version from its entities.
    static func model(
        name: String, version: Int, drafts: [EntityDraft], syntax: ModelSyntax,
        file: String, place: any ModelPlace
    ) throws -> Model {
        guard !drafts.isEmpty else { throw place.error("the model declares no entities") }
        let entities = try drafts.map { try entity($0, syntax: syntax) }
        try checkRelationships(entities, drafts, syntax: syntax)
        var tables: [String: String] = [:]
        for (entity, draft) in zip(entities, drafts) {
            if let other = tables[entity.table.lowercased()] {
                throw (draft.table?.place ?? draft.place).error(
                    "table '\(entity.table)' is also used by entity '\(other)'")
            }
            tables[entity.table.lowercased()] = entity.name
        }
        return Model(
            name: name, version: version, entities: entities,
            checksum: SHA256.hex(of: Array(ModelDescription.canonical(name, version, entities).utf8)), file: file)
    }

    static func entity(_ draft: EntityDraft, syntax: ModelSyntax) throws -> Entity {
        let name = draft.name, attributes = draft.attributes
        guard let hashKey = draft.hashKey else {
            throw draft.place.error("entity '\(name)' needs \(syntax.declaration("hashKey", "ATTRIBUTE"))")
        }
        guard let keyAttribute = attributes.first(where: { $0.name == hashKey.value }) else {
            throw hashKey.place.error("hash key '\(hashKey.value)' is not an attribute of '\(name)'")
        }
        guard keyAttribute.type.canBeKey else {
            throw hashKey.place.error(
                "hash key '\(hashKey.value)' is a \(keyAttribute.type.rawValue); a hash key must be a string or numeric attribute"
            )
        }
        guard let versionAttribute = draft.versionAttribute else {
            throw draft.place.error(
                "entity '\(name)' needs \(syntax.declaration("versionAttribute", "ATTRIBUTE")) (an int64 attribute the tool manages)"
            )
        }
        guard let version = attributes.first(where: { $0.name == versionAttribute.value }) else {
            throw versionAttribute.place.error(
                "version attribute '\(versionAttribute.value)' is not an attribute of '\(name)'; add '\(versionAttribute.value)' as an int64 attribute"
            )
        }
        guard version.type == .int64 else {
            throw versionAttribute.place.error(
                "version attribute '\(versionAttribute.value)' must be int64, not \(version.type.rawValue)")
        }
        guard versionAttribute.value != hashKey.value else {
            throw versionAttribute.place.error("the version attribute cannot be the hash key")
        }
        if let rangeKey = draft.rangeKey {
            try checkRangeKey(
                rangeKey, entity: name, hashKey: hashKey.value, versionAttribute: versionAttribute.value,
                attributes: attributes)
        }
        let table = draft.table?.value ?? name
        if let reason = tableNameProblem(table) {
            throw (draft.table?.place ?? draft.place).error("table name '\(table)': \(reason)")
        }
        return Entity(
            name: name, table: table, hashKey: hashKey.value, rangeKey: draft.rangeKey?.value,
            versionAttribute: versionAttribute.value, attributes: attributes, relationships: draft.relationships,
            renamedFrom: draft.renamedFrom, line: draft.line)
    }

    /// The sort key (docs/model.md#composite-keys): a string, integer, decimal or date attribute other than the hash
    /// key and the version attribute.
    private static func checkRangeKey(
        _ rangeKey: Declared<String>, entity: String, hashKey: String, versionAttribute: String,
        attributes: [Attribute]
    ) throws {
        guard let attribute = attributes.first(where: { $0.name == rangeKey.value }) else {
            throw rangeKey.place.error("range key '\(rangeKey.value)' is not an attribute of '\(entity)'")
        }
        guard rangeKey.value != hashKey, rangeKey.value != versionAttribute else {
            throw rangeKey.place.error(
                "the range key must be another attribute than the hash key and the version attribute")
        }
        guard attribute.type.canBeKey || attribute.type == .date else {
            throw rangeKey.place.error(
                "range key '\(rangeKey.value)' is a \(attribute.type.rawValue); a range key must be a string, integer, decimal or date attribute"
            )
        }
    }

    private static func checkRelationships(_ entities: [Entity], _ drafts: [EntityDraft], syntax: ModelSyntax) throws {
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
        for (entity, draft) in zip(entities, drafts) {
            for relationship in entity.relationships {
                let place = draft.relationshipPlaces[relationship.name] ?? draft.place
                let at = { (message: String) in place.error(message) }
                guard let destination = byName[relationship.destination] else {
                    throw at("destination '\(relationship.destination)' is not an entity of this model")
                }
                try checkInverse(relationship, of: entity, destination: destination, syntax: syntax, at: at)
                if relationship.toMany {
                    if relationship.isToOne {
                        throw at(
                            "\(syntax.declaration("key", "…")) belongs on the to-one side, not on a to-many relationship"
                        )
                    }
                    continue
                }
                try checkKeys(relationship, of: entity, destination: destination, syntax: syntax, at: at)
            }
        }
    }

    /// A to-one may go without an inverse (as in Core Data); a to-many is the inverse of a to-one.
    private static func checkInverse(
        _ relationship: Relationship, of entity: Entity, destination: Entity,
        syntax: ModelSyntax, at: (String) -> ConfigurationError
    ) throws {
        guard let inverseName = relationship.inverse else {
            if relationship.toMany {
                throw at(
                    "missing \(syntax == .yaml ? "'inverse:'" : "inverse"); a to-many relationship needs the to-one relationship of '\(destination.name)' that points back"
                )
            }
            return
        }
        guard let inverse = destination.relationships.first(where: { $0.name == inverseName }) else {
            throw at("inverse '\(inverseName)' is not a relationship of '\(destination.name)'")
        }
        guard inverse.destination == entity.name, inverse.inverse == relationship.name else {
            throw at(
                "inverse '\(destination.name).\(inverseName)' does not point back to '\(entity.name).\(relationship.name)'"
            )
        }
        if relationship.toMany && inverse.toMany {
            throw at("many-to-many relationships are not supported; model the link as an entity of its own")
        }
    }

    private static func checkKeys(
        _ relationship: Relationship, of entity: Entity, destination: Entity, syntax: ModelSyntax,
        at: (String) -> ConfigurationError
    ) throws {
        guard !relationship.keys.isEmpty else {
            throw at(
                "a to-one relationship needs \(syntax.declaration("key", "ATTRIBUTE")), the attribute holding the \(destination.name)'s \(destination.hashKey)"
            )
        }
        guard relationship.keys.count == destination.keyAttributes.count else {
            let wanted = destination.keyAttributes.joined(separator: ", ")
            let declaration =
                syntax == .yaml
                ? "key: [\(wanted)]" : "the userInfo entry key = \(destination.keyAttributes.joined(separator: ","))"
            throw at(
                "the key names \(relationship.keys.count) attribute(s), but \(destination.name) is keyed by \(destination.keyAttributes.count) (\(wanted)); write \(declaration) with this entity's attributes holding them"
            )
        }
        for (keyName, destinationKeyName) in zip(relationship.keys, destination.keyAttributes) {
            guard let keyAttribute = entity.attribute(named: keyName) else {
                throw at("key '\(keyName)' is not an attribute of '\(entity.name)'")
            }
            let destinationKey = destination.attribute(named: destinationKeyName)!
            guard keyAttribute.type == destinationKey.type else {
                throw at(
                    "key '\(keyName)' is a \(keyAttribute.type.rawValue) but \(destination.name).\(destinationKeyName) is a \(destinationKey.type.rawValue)"
                )
            }
        }
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || (48...57).contains($0) }
    }

    static func checkName(_ name: String, at place: any ModelPlace) throws {
        guard isValidName(name) else {
            throw place.error("'\(name)' is not a valid name; use letters, digits and _ and do not start with a digit")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }

    /// What every store needs of a table name (DynamoDB's own rule is the DynamoDB store's,
    /// checked with the pipeline's `tablePrefix` when the destination is DynamoDB).
    static func tableNameProblem(_ table: String) -> String? {
        if table.isEmpty { return "a table needs a name" }
        if table.lowercased().hasPrefix("sqlite_") { return "names beginning with 'sqlite_' are SQLite's own" }
        if table.utf8.contains(0) { return "a table name cannot hold a NUL character" }
        return nil
    }
}
