/// A model version as YAML (docs/model.md), such that loading the text gives the same model (the same
/// checksum): for `model convert`, and for the `model.yaml` of an archive of a Core Data model.
package enum ModelYAMLWriter {
    package static func text(of model: Model) -> String {
        var lines = ["model: \(model.name)", "version: \(model.version)", "entities:"]
        for entity in model.entities {
            lines.append("  \(entity.name):")
            if entity.table != entity.name { lines.append("    table: \(ModelText.yamlScalar(entity.table))") }
            lines.append("    hashKey: \(entity.hashKey)")
            if let rangeKey = entity.rangeKey { lines.append("    rangeKey: \(rangeKey)") }
            lines.append("    versionAttribute: \(entity.versionAttribute)")
            if let renamedFrom = entity.renamedFrom {
                lines.append("    renamedFrom: \(ModelText.yamlScalar(renamedFrom))")
            }
            lines.append("    attributes:")
            for attribute in entity.attributes { lines.append("      \(attribute.name): \(flow(attribute))") }
            if !entity.relationships.isEmpty {
                lines.append("    relationships:")
                for relationship in entity.relationships {
                    lines.append("      \(relationship.name): \(flow(relationship))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{ type: string, required: true, maxLength: 200 }`
    static func flow(_ attribute: Attribute) -> String {
        var fields = ["type: \(attribute.type.rawValue)"]
        if attribute.required { fields.append("required: true") }
        if let minimum = attribute.minimum { fields.append("min: \(ModelText.number(minimum))") }
        if let maximum = attribute.maximum { fields.append("max: \(ModelText.number(maximum))") }
        if let maxLength = attribute.maxLength { fields.append("maxLength: \(maxLength)") }
        if let pattern = attribute.pattern { fields.append("pattern: \(ModelText.quoted(pattern))") }
        if let values = attribute.allowedValues { fields.append("values: \(ModelText.list(values))") }
        if let value = attribute.defaultValue {
            fields.append("default: \(ModelText.yamlScalar(ModelText.defaultText(value)))")
        }
        if let renamedFrom = attribute.renamedFrom {
            fields.append("renamedFrom: \(ModelText.yamlScalar(renamedFrom))")
        }
        if let conversion = attribute.conversion { fields.append("convert: \(ModelText.conversion(conversion))") }
        return "{ " + fields.joined(separator: ", ") + " }"
    }

    /// `{ destination: Location, key: locationId, inverse: checkins, deleteRule: nullify }`
    static func flow(_ relationship: Relationship) -> String {
        var fields = ["destination: \(relationship.destination)"]
        if relationship.toMany { fields.append("toMany: true") }
        if relationship.keys.count == 1 { fields.append("key: \(relationship.keys[0])") }
        if relationship.keys.count > 1 { fields.append("key: [\(relationship.keys.joined(separator: ", "))]") }
        if let inverse = relationship.inverse { fields.append("inverse: \(inverse)") }
        fields.append("deleteRule: \(relationship.deleteRule.rawValue)")
        return "{ " + fields.joined(separator: ", ") + " }"
    }
}
