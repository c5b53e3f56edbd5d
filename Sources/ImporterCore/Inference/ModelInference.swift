/// `importer model infer` (docs/infer.md): a model with one entity per input file, and a starter
/// pipeline that loads those files into it, from the files' profiles (`FileProfile`, one
/// streaming pass each). Types, `required`, null markers, date formats, keys and relationships
/// are inferred; every choice that could be wrong is said in a comment of the model.
package enum ModelInference {
    /// The model named `modelName` for the files `profiles` describe. Throws a
    /// `ConfigurationError` naming the file when one has no records to infer from. With
    /// `computesKeys: false` (`--no-key`), an entity with no key column or pair gets no computed
    /// `rowKey`: it is left without a key, for the user to name one.
    package static func infer(_ profiles: [FileProfile], modelName: String, computesKeys: Bool = true) throws
        -> InferredModel
    {
        var entities: [InferredEntity] = []
        var names = Set<String>()
        // A dump's files share their null markers: NA found null in one file is null in all.
        let shared = profiles.filter { $0.csv != nil }.map { NullMarkers.choose($0.columns) }
            .reduce([false, false, false, false]) { zip($0, $1).map { $0 || $1 } }
        for profile in profiles {
            guard profile.records > 0 else {
                let reason =
                    profile.failures > 0
                    ? "none of its \(profile.failures) records could be read (first: \(profile.firstFailure ?? "?")); check the file or pass --format"
                    : "it holds no records to infer from; add data, or write the entity by hand"
                throw ConfigurationError(file: profile.path, reason)
            }
            let name = Identifiers.unique(Identifiers.entityName(forFile: profile.path), in: names)
            names.insert(name.lowercased())
            var builder = EntityBuilder(profile: profile, sharedMarkers: shared)
            entities.append(try withKey(namingMongoID(builder.build(name: name)), computesKeys: computesKeys))
            try addChildren(
                profile.children, of: entities.count - 1, to: &entities, names: &names, computesKeys: computesKeys)
        }
        var suggester = RelationshipSuggester(entities: entities)
        return InferredModel(name: modelName, entities: relateNesting(suggester.suggest()))
    }

    /// Whether `name` can name a model (`[A-Za-z_][A-Za-z0-9_]*`).
    package static func isValidName(_ name: String) -> Bool { ModelChecks.isValidName(name) }

    /// A model name made of a directory's name (`retail-dumps` → `RetailDumps`); nil when none
    /// can be made.
    package static func modelName(fromDirectory name: String) -> String? {
        let made = Identifiers.entityName(forFile: name + ".x", singular: false)
        return made == "Entity" || made.hasPrefix("_") ? nil : made
    }

    /// The entity with its key (a column, a pair, or a computed `rowKey`) and version attribute.
    static func withKey(_ entity: InferredEntity, computesKeys: Bool) throws -> InferredEntity {
        var entity = entity
        let taken = Set(entity.attributes.map { $0.name.lowercased() })
        let (key, notes) = KeyFinder(entity).find()
        entity.notes += notes
        if let key {
            entity.key = key
        } else if !computesKeys {
            entity.notes.append(
                "left without a key (--no-key): name the attribute that identifies a record with hashKey (and rangeKey), or compute one with map.compute in the pipeline, before loading"
            )
        } else {
            guard let found = RowKeyFinder(entity: entity).find() else {
                throw ConfigurationError(
                    file: entity.profile.path,
                    "its records have no field a key can be made of; infer needs at least one column")
            }
            let name = Identifiers.unique("rowKey", in: taken)
            let fields = found.fields.map { entity.attributes[$0].field! }
            entity.attributes.append(
                InferredAttribute(name: name, field: nil, column: nil, type: .string, required: true))
            entity.key = .computed(
                attribute: entity.attributes.count - 1, fields: fields, separator: found.separator,
                duplicates: found.duplicates, nulls: found.nulls)
            let leftOut = found.leftOut.map {
                "\(entity.attributes[$0.field].field!) (implied by \(entity.attributes[$0.impliedBy].field!))"
            }
            entity.notes += rowKeyNotes(
                name, fields: fields, leftOut: leftOut, duplicates: found.duplicates, nulls: found.nulls)
        }
        return withVersion(entity)
    }

    /// The entity with its version attribute: `version`, else `_version`, else a number after it.
    static func withVersion(_ entity: InferredEntity) -> InferredEntity {
        var entity = entity
        let taken = Set(entity.attributes.map { $0.name.lowercased() })
        entity.versionAttribute = Identifiers.unique(taken.contains("version") ? "_version" : "version", in: taken)
        return entity
    }

    private static func rowKeyNotes(_ name: String, fields: [String], leftOut: [String], duplicates: Int, nulls: Int)
        -> [String]
    {
        var notes = [
            "so \(name) is the key, computed by the pipeline (map.compute) from \(fields.joined(separator: ", "))"
        ]
        var how = "chosen as the fields that are never null"
        if !leftOut.isEmpty { how += ", less those another of them implies: \(leftOut.joined(separator: ", "))" }
        notes.append(
            how
                + "; a field constant in this sample and a never-null date are always kept, so the next dump's records get keys of their own"
        )
        if duplicates > 0 {
            notes.append(
                "\(duplicates) record(s) repeat an earlier record's \(name): importer run rejects them as duplicate and reports them"
            )
        }
        if nulls > 0 {
            notes.append(
                "\(nulls) record(s) have no \(fields[0]): importer run rejects them (required) and reports them")
        }
        if duplicates == 0 && nulls == 0 { notes.append("those fields are unique together in the data") }
        return notes
    }
}

/// What `ModelInference.infer` found: the model's YAML, and a starter pipeline's.
package struct InferredModel {
    package let name: String
    let entities: [InferredEntity]

    init(name: String, entities: [InferredEntity]) {
        self.name = name
        self.entities = entities
    }

    /// The model file's text.
    package var modelYAML: String { ModelDocument(model: self).text }

    /// A pipeline file's text that loads the inferred files into the model. `modelPath` and
    /// `sourcePaths` (one per file, in order) are written as given: relative to the pipeline
    /// file's directory. `name` names the store file and the report directory.
    package func pipelineYAML(modelPath: String, sourcePaths: [String], name: String) -> String {
        PipelineDocument(model: self, modelPath: modelPath, sourcePaths: sourcePaths, name: name).text
    }

    /// Whether an entity was left without a key (`--no-key`): the model does not load as it is.
    package var lacksKeys: Bool { entities.contains { $0.key == nil } }

    /// One line per entity: its file, records, key and relationships.
    package var summary: [String] {
        entities.map { entity in
            var line = "\(entity.name): \(entity.profile.records) records of \(entity.profile.path)"
            if let nesting = entity.nesting {
                line =
                    "\(entity.name): \(entity.profile.records) elements of \(nesting.arrayPath.joined(separator: ".")) in \(entities[nesting.parent].name) of \(entity.profile.path)"
            }
            switch entity.key {
            case .single(let index): line += ", key \(entity.attributes[index].name)"
            case .pair(let hash, let range):
                line += ", key \(entity.attributes[hash].name) + \(entity.attributes[range].name)"
            case .computed(let index, _, _, _, _): line += ", no key: \(entity.attributes[index].name) computed"
            case nil: line += ", no key: name one in the model before loading"
            }
            for relationship in entity.relationships where relationship.inverse == nil {
                line += ", \(relationship.name) → \(relationship.destination) (\(percent(relationship.share)))"
            }
            return line
        }
    }
}

/// `0.75` → `75%`, `0.6667` → `66.7%`; `100%` only when every value is.
func percent(_ share: Double) -> String {
    if share >= 1 { return "100%" }
    let tenths = min((share * 1000).rounded() / 10, 99.9)
    return tenths == tenths.rounded() ? "\(Int(tenths))%" : "\(tenths)%"
}
