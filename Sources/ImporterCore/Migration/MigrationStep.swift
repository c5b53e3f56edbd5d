/// How one model version is made from the previous one (Core Data's inferred mapping model,
/// plus the explicit `convert:` declarations): per entity, where each attribute comes from.
package struct MigrationStep: Sendable {
    package let from: Model
    package let to: Model
    /// The new version's entities, in model order.
    package let entities: [EntityMapping]
    /// Entities of the old version that the new one no longer has: their items are dropped.
    package let removedEntities: [Entity]
    /// What cannot be migrated; a plan with refusals is never run.
    package let refusals: [ConfigurationError]

    /// Infers the step from `from` to `to`, collecting every refusal.
    package init(from: Model, to: Model) {
        self.from = from
        self.to = to
        var refusals: [ConfigurationError] = []
        var usedSources = Set<String>()
        var entities: [EntityMapping] = []
        for entity in to.entities {
            let source =
                from.entity(named: entity.name)
                ?? entity.renamedFrom.flatMap { name in to.entity(named: name) == nil ? from.entity(named: name) : nil }
            if let renamed = entity.renamedFrom, source == nil, from.entity(named: entity.name) == nil {
                refusals.append(
                    ConfigurationError(
                        file: to.file, line: entity.line, key: entity.name,
                        "renamedFrom '\(renamed)' names no entity of version \(from.version) (or one still in this version)"
                    ))
            }
            if let source { usedSources.insert(source.name) }
            let mapping = EntityMapping(entity: entity, source: source, fromVersion: from.version, file: to.file)
            refusals += mapping.refusals
            entities.append(mapping)
        }
        self.entities = entities
        removedEntities = from.entities.filter { !usedSources.contains($0.name) }
        self.refusals = refusals
    }

    package func mapping(forNew name: String) -> EntityMapping? { entities.first { $0.entity.name == name } }

    package func mapping(forOld name: String) -> EntityMapping? { entities.first { $0.source?.name == name } }
}

/// One entity of a migration step: its old self (nil for a new entity) and each attribute's origin.
package struct EntityMapping: Sendable {
    package let entity: Entity
    package let source: Entity?
    /// Parallel to `entity.attributes`.
    package let attributes: [AttributeMapping]
    /// Old attributes that no new attribute carries: their values are dropped.
    package let removed: [Attribute]
    package let refusals: [ConfigurationError]

    init(entity: Entity, source: Entity?, fromVersion: Int, file: String) {
        self.entity = entity
        self.source = source
        var refusals: [ConfigurationError] = []
        func refuse(_ attribute: Attribute, _ message: String) {
            refusals.append(
                ConfigurationError(file: file, line: attribute.line, key: "\(entity.name).\(attribute.name)", message))
        }
        var carried = Set<String>()
        var mappings: [AttributeMapping] = []
        for attribute in entity.attributes {
            let mapping = AttributeMapping(
                attribute: attribute, entity: entity, source: source, fromVersion: fromVersion, refuse: refuse)
            if case .carried(let index, _) = mapping.origin, let source {
                let old = source.attributes[index].name
                if !carried.insert(old).inserted {
                    refuse(
                        attribute,
                        "\(old) of version \(fromVersion) is carried by two attributes; copy it with convert: { copy: \(old) } instead"
                    )
                }
            }
            mappings.append(mapping)
        }
        if let source {
            let key = mappings[entity.hashKeyIndex]
            if case .carried(let index, _) = key.origin, index == source.hashKeyIndex {
                let (old, new) = (source.attributes[index].type, entity.attributes[entity.hashKeyIndex].type)
                if old != new && !(old.isInteger && new.isInteger && Widening.isWidening(from: old, to: new)) {
                    refuse(
                        entity.attributes[entity.hashKeyIndex],
                        "the hash key changes type from \(old.rawValue) to \(new.rawValue), which changes every item's identity; export, transform and import into a new store instead"
                    )
                }
            } else {
                refuse(
                    entity.attributes[entity.hashKeyIndex],
                    "the hash key must be the previous version's hash key \(source.hashKey) (renamed at most): a new key changes every item's identity"
                )
            }
            // A range key added, removed or replaced changes every item's identity too.
            switch (source.rangeKeyIndex, entity.rangeKeyIndex) {
            case (nil, nil): break
            case (let old?, let new?):
                if case .carried(let index, _) = mappings[new].origin, index == old,
                    source.attributes[old].type == entity.attributes[new].type
                {
                } else {
                    refuse(
                        entity.attributes[new],
                        "the range key must be the previous version's range key \(source.rangeKey!) (renamed at most, of the same type): a new key changes every item's identity; export, transform and import into a new store instead"
                    )
                }
            case (nil, let new?):
                refuse(
                    entity.attributes[new],
                    "a range key cannot be added to an entity with items: it changes every item's identity; export, transform and import into a new store instead"
                )
            case (let old?, nil):
                refuse(
                    source.attributes[old],
                    "the range key \(source.rangeKey!) cannot be removed: items would lose their identity; export, transform and import into a new store instead"
                )
            }
            if case .carried(let index, _) = mappings[entity.versionIndex].origin, index == source.versionIndex {
            } else {
                refuse(
                    entity.attributes[entity.versionIndex],
                    "the version attribute must be the previous version's \(source.versionAttribute) (renamed at most), so items keep their versions"
                )
            }
        }
        attributes = mappings
        removed = source?.attributes.filter { !carried.contains($0.name) } ?? []
        self.refusals = refusals
    }

    /// True when the step changes nothing stored in this entity's items.
    package var isUnchanged: Bool {
        guard let source, source.table == entity.table, removed.isEmpty else { return false }
        return attributes.allSatisfy { mapping in
            if case .carried(let index, let widened) = mapping.origin {
                return widened == nil && !mapping.needsCheck && source.attributes[index].name == mapping.attribute.name
            }
            return false
        }
    }
}

/// Where one attribute's value comes from in a migration step.
package struct AttributeMapping: Sendable {
    package enum Origin: Sendable {
        /// The old attribute at this position, unchanged or widened from the given type.
        case carried(from: Int, widenedFrom: AttributeType?)
        /// A new attribute: null, or its default.
        case added
        /// Made by an explicit conversion from the old attributes at these positions.
        case converted(Conversion, inputs: [Int])
    }

    package let attribute: Attribute
    package let origin: Origin
    /// True when stored values must be checked against the new attribute: conversions, and
    /// carried values whose constraints became stricter or whose nulls now take a default.
    package let needsCheck: Bool

    init(attribute: Attribute, entity: Entity, source: Entity?, fromVersion: Int, refuse: (Attribute, String) -> Void) {
        self.attribute = attribute
        guard let source else {
            if attribute.conversion != nil {
                refuse(
                    attribute,
                    "convert: needs a previous version of \(entity.name), but the entity is new in this version")
            }
            origin = .added
            needsCheck = false
            return
        }
        let sameName = source.attributeIndex[attribute.name]
        if let conversion = attribute.conversion,
            !(sameName.map { source.attributes[$0].conversion == conversion } ?? false)
        {
            var inputs: [Int] = []
            for name in conversion.inputs {
                guard let index = source.attributeIndex[name] else {
                    refuse(
                        attribute,
                        "convert reads '\(name)', which is not an attribute of \(source.name) in version \(fromVersion); a convert: applies to the step from the previous version only"
                    )
                    continue
                }
                inputs.append(index)
            }
            if attribute.name == entity.hashKey || attribute.name == entity.versionAttribute {
                refuse(attribute, "the hash key and the version attribute cannot be converted")
            }
            origin = .converted(conversion, inputs: inputs)
            needsCheck = true
            return
        }
        let renamed = attribute.renamedFrom.flatMap { name in
            entity.attributeIndex[name] == nil ? source.attributeIndex[name] : nil
        }
        if sameName == nil, let name = attribute.renamedFrom, renamed == nil {
            let reason =
                entity.attributeIndex[name] != nil
                ? "is still an attribute of this version; to copy it use convert: { copy: \(name) }"
                : "is not an attribute of \(source.name) in version \(fromVersion)"
            refuse(attribute, "renamedFrom '\(name)' \(reason)")
        }
        guard let index = sameName ?? renamed else {
            if attribute.required && attribute.defaultValue == nil && attribute.name != entity.versionAttribute {
                refuse(
                    attribute,
                    "is new and required without a default: the stored items would have no value; give it default: or convert:"
                )
            }
            origin = .added
            needsCheck = false
            return
        }
        let old = source.attributes[index]
        if !Widening.isWidening(from: old.type, to: attribute.type) {
            refuse(
                attribute,
                "changes type from \(old.type.rawValue) to \(attribute.type.rawValue), which is not a widening (int16→int32→int64→decimal, float→double, any→string); declare convert: on it"
            )
        }
        if attribute.required && !old.required && attribute.defaultValue == nil && attribute.name != entity.hashKey {
            refuse(
                attribute,
                "becomes required without a default: stored nulls would have no value; give it default: or convert:")
        }
        origin = .carried(from: index, widenedFrom: old.type == attribute.type ? nil : old.type)
        needsCheck = Self.isStricter(attribute, than: old)
    }

    /// True if a value valid for `old` may be invalid for `new` (or a null now takes a default).
    static func isStricter(_ new: Attribute, than old: Attribute) -> Bool {
        if new.required && !old.required { return true }
        if new.defaultValue != nil && old.defaultValue == nil { return true }  // stored nulls take it
        if let minimum = new.minimum, old.minimum.map({ $0 < minimum }) ?? true { return true }
        if let maximum = new.maximum, old.maximum.map({ $0 > maximum }) ?? true { return true }
        if let length = new.maxLength, old.maxLength.map({ $0 > length }) ?? true { return true }
        if let pattern = new.pattern, old.pattern != pattern { return true }
        if let values = new.allowedValues,
            !Set(old.allowedValues ?? []).isSubset(of: values) || old.allowedValues == nil
        {
            return true
        }
        if new.type.integerRange != nil, let oldRange = old.type.integerRange, let range = new.type.integerRange,
            oldRange.lowerBound < range.lowerBound || oldRange.upperBound > range.upperBound
        {
            return true
        }
        return false
    }
}
