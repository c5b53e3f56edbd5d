/// A model version as the `contents` XML of an `.xcdatamodel`, the way Xcode writes it
/// (docs/coredata.md): Core Data's attributes and relationships, and the importer's declarations in
/// `userInfo` entries (`hashKey`, `rangeKey`, `versionAttribute`, `table`, `key`, `values`,
/// `convert`). Reading the text back gives the same model (the same checksum).
enum CoreDataModelWriter {
    static func contents(of model: Model) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
            #"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="1" systemVersion="importer" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">"#,
        ]
        for entity in model.entities {
            lines.append(
                "    "
                    + tag(
                        "entity",
                        [
                            ("name", entity.name), ("representedClassName", entity.name),
                            ("elementID", entity.renamedFrom), ("syncable", "YES"),
                        ], closed: false))
            for attribute in entity.attributes { lines.append("        " + element(attribute)) }
            for relationship in entity.relationships { lines += self.element(relationship) }
            var info = [("hashKey", entity.hashKey), ("versionAttribute", entity.versionAttribute)]
            if let rangeKey = entity.rangeKey { info.append(("rangeKey", rangeKey)) }
            if entity.table != entity.name { info.append(("table", entity.table)) }
            lines += userInfo(info, indent: "        ")
            lines.append("    </entity>")
        }
        lines.append("</model>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Xcode's `attributeType` for each type.
    static let typeNames: [AttributeType: String] = Dictionary(
        uniqueKeysWithValues: CoreDataAttributes.types.map { ($0.value, $0.key) })

    private static func element(_ attribute: Attribute) -> String {
        let isText = attribute.type.isText
        var fields: [(String, String?)] = [
            ("name", attribute.name), ("optional", attribute.required ? nil : "YES"),
            ("attributeType", typeNames[attribute.type]),
            ("minValueString", isText ? nil : attribute.minimum.map(ModelText.number)),
            ("maxValueString", isText ? attribute.maxLength.map(String.init) : attribute.maximum.map(ModelText.number)),
        ]
        switch attribute.defaultValue {
        case .date(let millis)?:
            fields.append(
                (
                    "defaultDateTimeInterval",
                    ModelText.number(Double(millis) / 1000 - Double(CoreDataAttributes.referenceDate))
                ))
        case .boolean(let flag)?: fields.append(("defaultValueString", flag ? "YES" : "NO"))
        case let value?: fields.append(("defaultValueString", ModelText.defaultText(value)))
        case nil: break
        }
        fields += [("regularExpressionString", attribute.pattern), ("elementID", attribute.renamedFrom)]
        if [.int16, .int32, .int64, .double, .float, .boolean].contains(attribute.type) {
            fields.append(("usesScalarValueType", "YES"))
        }
        var info: [(String, String)] = []
        if let values = attribute.allowedValues { info.append(("values", ModelText.list(values))) }
        if let conversion = attribute.conversion { info.append(("convert", ModelText.conversion(conversion))) }
        guard !info.isEmpty else { return tag("attribute", fields, closed: true) }
        return
            ([tag("attribute", fields, closed: false)] + userInfo(info, indent: "            ") + [
                "        </attribute>"
            ])
            .joined(separator: "\n")
    }

    private static let deletionRules: [DeleteRule: String] = [.nullify: "Nullify", .cascade: "Cascade", .deny: "Deny"]

    private static func element(_ relationship: Relationship) -> [String] {
        let fields: [(String, String?)] = [
            ("name", relationship.name), ("optional", "YES"), ("toMany", relationship.toMany ? "YES" : nil),
            ("maxCount", relationship.toMany ? nil : "1"), ("deletionRule", deletionRules[relationship.deleteRule]),
            ("destinationEntity", relationship.destination), ("inverseName", relationship.inverse),
            ("inverseEntity", relationship.inverse.map { _ in relationship.destination }),
        ]
        guard !relationship.keys.isEmpty else { return ["        " + tag("relationship", fields, closed: true)] }
        return ["        " + tag("relationship", fields, closed: false)]
            + userInfo([("key", relationship.keys.joined(separator: ","))], indent: "            ")
            + ["        </relationship>"]
    }

    private static func userInfo(_ entries: [(String, String)], indent: String) -> [String] {
        guard !entries.isEmpty else { return [] }
        return ["\(indent)<userInfo>"]
            + entries.sorted { $0.0 < $1.0 }.map {
                "\(indent)    " + tag("entry", [("key", $0.0), ("value", $0.1)], closed: true)
            }
            + ["\(indent)</userInfo>"]
    }

    private static func tag(_ name: String, _ fields: [(String, String?)], closed: Bool) -> String {
        let attributes = fields.compactMap { key, value in value.map { " \(key)=\"\(XMLText.escaped($0))\"" } }.joined()
        return "<\(name)\(attributes)\(closed ? "/>" : ">")"
    }
}
