/// Writes an inferred model as a model file (docs/model.md): one entity per file, attributes in
/// column order, then the version attribute; what inference found or doubted as comments.
struct ModelDocument {
    let model: InferredModel

    var text: String {
        var lines = [
            "# Inferred by `importer model infer` from \(model.entities.filter { $0.nesting == nil }.count) file(s): a starting point.",
            "# Check the types, keys and relationships (the comments say how each was found).",
            "model: \(Identifiers.yaml(model.name))",
            "version: 1",
            "entities:",
        ]
        for entity in model.entities { lines += self.entity(entity) }
        return lines.joined(separator: "\n") + "\n"
    }

    private func entity(_ entity: InferredEntity) -> [String] {
        let profile = entity.profile
        let unit = entity.nesting == nil ? "records" : "elements"
        let read = profile.sampled ? "the first \(profile.records) \(unit)" : "\(profile.records) \(unit)"
        var lines = [
            "  \(Identifiers.yaml(entity.name)):",
            "    # \(Self.comment(FilePaths.lastComponent(profile.path))): \(read)",
        ]
        lines += entity.notes.map { "    # \(Self.comment($0))" }
        lines += entity.dropped.map { "    # not an attribute: \(Self.comment("'\($0.field)': \($0.reason)"))" }
        if let key = entity.keyAttributes {
            lines.append("    hashKey: \(Identifiers.yaml(key.hash))")
            if let range = key.range { lines.append("    rangeKey: \(Identifiers.yaml(range))") }
        } else {
            lines.append("    # hashKey: ATTRIBUTE   # to be named: the model loads once every entity has a key")
        }
        lines.append("    versionAttribute: \(Identifiers.yaml(entity.versionAttribute))")
        lines.append("    attributes:")
        let width =
            (entity.attributes.map(\.name) + [entity.versionAttribute]).map { Identifiers.yaml($0).count }.max()! + 1
        for attribute in entity.attributes { lines.append(self.attribute(attribute, entity: entity, width: width)) }
        lines.append(
            "      " + pad(Identifiers.yaml(entity.versionAttribute) + ":", width)
                + " { type: int64 }   # managed by importer: 1 on insert, + 1 on every change")
        guard !entity.relationships.isEmpty else { return lines }
        lines.append("    relationships:")
        for relationship in entity.relationships { lines.append(self.relationship(relationship, entity: entity)) }
        return lines
    }

    private func attribute(_ attribute: InferredAttribute, entity: InferredEntity, width: Int) -> String {
        var text =
            "      " + pad(Identifiers.yaml(attribute.name) + ":", width)
            + " { type: \(attribute.type.attributeType.rawValue)"
        if attribute.required { text += ", required: true" }
        text += " }"
        var notes = attribute.notes
        if let field = attribute.field, field != attribute.name { notes.insert("column '\(field)'", at: 0) }
        if attribute.type == .date, let format = entity.dateFormat {
            notes.append("written as \(format) (map.dateFormat)")
        }
        return notes.isEmpty ? text : text + "   # " + Self.comment(notes.joined(separator: "; "))
    }

    private func relationship(_ relationship: InferredRelationship, entity: InferredEntity) -> String {
        if let inverse = relationship.inverse { return nesting(relationship, inverse: inverse, entity: entity) }
        let key = entity.attributes[relationship.attribute].name
        let share =
            relationship.found == relationship.values
            ? "all \(relationship.values) values of \(key) are \(relationship.destination) keys"
            : "\(relationship.found) of \(relationship.values) values of \(key) (\(percent(relationship.share))) are \(relationship.destination) keys; the pipeline keeps the others (references: keep)"
        return
            "      \(Identifiers.yaml(relationship.name)): { destination: \(Identifiers.yaml(relationship.destination)), key: \(Identifiers.yaml(key)) }"
            + "   # suggested: \(share)"
    }

    /// A relationship of the documents' nesting: the child's to-one on the parent's key, the
    /// parent's to-many, whose deletes cascade as replacing a document's children does.
    private func nesting(_ relationship: InferredRelationship, inverse: String, entity: InferredEntity) -> String {
        let destination = Identifiers.yaml(relationship.destination)
        guard !relationship.toMany else {
            return
                "      \(Identifiers.yaml(relationship.name)): { destination: \(destination), toMany: true, inverse: \(Identifiers.yaml(inverse)), deleteRule: cascade }   # the documents' nesting"
        }
        var key = Identifiers.yaml(entity.attributes[relationship.attribute].name)
        if let range = relationship.rangeAttribute {
            key = "[\(key), \(Identifiers.yaml(entity.attributes[range].name))]"
        }
        return
            "      \(Identifiers.yaml(relationship.name)): { destination: \(destination), key: \(key), inverse: \(Identifiers.yaml(inverse)) }   # the documents' nesting"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// Text made safe for one comment line.
    static func comment(_ text: String) -> String {
        String(text.map { $0.isNewline || ($0.asciiValue.map { $0 < 32 } ?? false) ? " " : $0 })
    }
}
