/// The text a model's checksum is taken of.
enum ModelDescription {
    /// A stable text of everything that affects stored data, for the checksum.
    static func canonical(_ name: String, _ version: Int, _ entities: [Entity]) -> String {
        var text = "model \(name) \(version)\n"
        for entity in entities {
            text +=
                "entity \(entity.name) table=\(entity.table) key=\(entity.hashKey)\(entity.rangeKey.map { " range=\($0)" } ?? "") version=\(entity.versionAttribute) renamedFrom=\(entity.renamedFrom ?? "")\n"
            for a in entity.attributes {
                text +=
                    "  attribute \(a.name) \(a.type.rawValue) required=\(a.required) min=\(a.minimum.map { "\($0)" } ?? "") max=\(a.maximum.map { "\($0)" } ?? "") maxLength=\(a.maxLength.map { "\($0)" } ?? "") pattern=\(a.pattern ?? "") values=\(a.allowedValues?.joined(separator: "|") ?? "") default=\(a.defaultValue.map { "\($0)" } ?? "") renamedFrom=\(a.renamedFrom ?? "")\(a.conversion.map { " convert=\($0)" } ?? "")\n"
            }
            for r in entity.relationships {
                text +=
                    "  relationship \(r.name) -> \(r.destination) toMany=\(r.toMany) inverse=\(r.inverse ?? "") key=\(r.keys.joined(separator: ",")) deleteRule=\(r.deleteRule.rawValue)\n"
            }
        }
        return text
    }
}
