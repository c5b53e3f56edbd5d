import Foundation

/// Reads one version of a Core Data model, the `contents` XML of an `.xcdatamodel` package,
/// into a checked model (docs/coredata.md). Sub-entities get their parents' attributes, userInfo and
/// to-one relationships; abstract entities are not entities of their own.
struct CoreDataModelReader {
    /// The `contents` file.
    let file: String
    private(set) var warnings: [ModelWarning] = []

    init(file: String) {
        self.file = file
    }

    mutating func read(name: String, version: Int) throws -> Model {
        try parse(Array(try YAMLNode.readText(file, what: "Core Data model file").utf8), name: name, version: version)
    }

    /// Reads `contents` bytes as if they were in `file`.
    mutating func parse(_ bytes: [UInt8], name: String, version: Int) throws -> Model {
        let root = try XMLElementNode.parse(bytes, file: file)
        let place = FilePlace(file: file, line: root.line, key: nil)
        guard root.name == "model" else {
            throw place.error("not a Core Data model: the root element is <\(root.name)>, not <model>")
        }
        var entityReader = CoreDataEntityReader(file: file)
        var declared: [CoreDataEntity] = []
        for child in root.children {
            switch child.name {
            case "entity":
                let entity = try entityReader.entity(child)
                if declared.contains(where: { $0.name == entity.name }) {
                    throw entity.place.error("entity '\(entity.name)' is declared twice")
                }
                declared.append(entity)
            case "configuration":
                warn(
                    child,
                    "configuration '\(child.attributes["name"] ?? "?")' is not used: every entity goes to the one destination of the pipeline"
                )
            case "fetchRequest":
                warn(
                    child,
                    "fetch request '\(child.attributes["name"] ?? "?")' is not used: the importer runs no stored queries"
                )
            case "elements":
                continue  // the diagram's layout
            default:
                warn(child, "<\(child.name)> is not used by the importer")
            }
        }
        warnings = (entityReader.warnings + warnings).sorted { ($0.line ?? 0) < ($1.line ?? 0) }
        let flattened = try CoreDataInheritance.flatten(declared, warnings: &warnings)
        let drafts = try flattened.map(draft)
        return try ModelChecks.model(
            name: name, version: version, drafts: drafts, syntax: .coreData, file: file, place: place)
    }

    /// The entity with its keys and to-one relationships' keys resolved.
    private func draft(_ entity: CoreDataEntity) throws -> EntityDraft {
        func declared(_ key: String) -> Declared<String>? {
            entity.info[key].map {
                Declared(value: $0, place: FilePlace(file: file, line: entity.place.line, key: "userInfo \(key)"))
            }
        }
        var hashKey = declared("hashKey"), rangeKey = declared("rangeKey")
        // Without userInfo keys, a uniqueness constraint of one or two attributes is the key.
        if hashKey == nil, let constraint = entity.uniquenessConstraints.first(where: { (1...2).contains($0.count) }) {
            let place = FilePlace(file: file, line: entity.place.line, key: "uniquenessConstraint")
            hashKey = Declared(value: constraint[0], place: place)
            rangeKey = constraint.count == 2 ? Declared(value: constraint[1], place: place) : rangeKey
        }
        let relationships = try entity.relationships.map { try relationship($0, of: entity) }
        return EntityDraft(
            name: entity.name, place: entity.place, table: declared("table"), hashKey: hashKey, rangeKey: rangeKey,
            versionAttribute: declared("versionAttribute"), attributes: entity.attributes, relationships: relationships,
            relationshipPlaces: Dictionary(
                uniqueKeysWithValues: entity.relationships.map { ($0.name, $0.place as any ModelPlace) }),
            renamedFrom: entity.renamedFrom, line: entity.place.line)
    }

    /// A to-one's key: the userInfo entry `key`, else an attribute named `<relationship>Id`.
    private func relationship(_ declared: CoreDataEntity.DeclaredRelationship, of entity: CoreDataEntity) throws
        -> Relationship
    {
        var keys: [String] = []
        if let key = declared.key {
            keys = CoreDataUserInfo.keys(key)
        } else if !declared.toMany {
            let conventional = declared.name + "Id"
            guard entity.attributes.contains(where: { $0.name == conventional }) else {
                throw declared.place.error(
                    "to-one relationship \(entity.name).\(declared.name) needs the userInfo entry key = ATTRIBUTE (the attribute of \(entity.name) holding the \(declared.destination)'s key), or an attribute named \(conventional)"
                )
            }
            keys = [conventional]
        }
        return Relationship(
            name: declared.name, destination: declared.destination, toMany: declared.toMany,
            inverse: declared.inverse, keys: keys, deleteRule: declared.deleteRule)
    }

    private mutating func warn(_ element: XMLElementNode, _ message: String) {
        warnings.append(ModelWarning(file: file, line: element.line, message: message))
    }
}
