/// One `<entity>` of a Core Data model as declared, before inheritance is flattened and
/// to-one keys are resolved.
struct CoreDataEntity {
    /// A `<relationship>` as declared.
    struct DeclaredRelationship {
        let name: String
        let destination: String
        let toMany: Bool
        let inverse: String?
        let deleteRule: DeleteRule
        /// The userInfo entry `key`, if any.
        let key: String?
        let place: FilePlace
    }

    let name: String
    let parent: String?
    let isAbstract: Bool
    let place: FilePlace
    /// userInfo: hashKey, rangeKey, versionAttribute, table.
    var info: [String: String]
    var attributes: [Attribute]
    var relationships: [DeclaredRelationship]
    let renamedFrom: String?
    /// `<uniquenessConstraint>`s: each a list of attribute names.
    let uniquenessConstraints: [[String]]
}

/// Reads `<entity>` elements (docs/coredata.md): attributes, relationships, userInfo, uniqueness
/// constraints; fetched properties and indexes are named in warnings.
struct CoreDataEntityReader {
    let file: String
    private(set) var attributeReader: CoreDataAttributes
    /// In document order.
    var warnings: [ModelWarning] { (attributeReader.warnings + ownWarnings).sorted { ($0.line ?? 0) < ($1.line ?? 0) } }
    private var ownWarnings: [ModelWarning] = []

    init(file: String) {
        self.file = file
        attributeReader = CoreDataAttributes(file: file)
    }

    mutating func entity(_ element: XMLElementNode) throws -> CoreDataEntity {
        var place = FilePlace(file: file, line: element.line, key: element.attributes["name"])
        guard let name = element.attributes["name"] else { throw place.error("an <entity> has no name") }
        try ModelChecks.checkName(name, at: place)
        place.key = name
        var attributes: [Attribute] = [], relationships: [CoreDataEntity.DeclaredRelationship] = []
        var names = Set<String>()
        for child in element.children {
            switch child.name {
            case "attribute":
                if let attribute = try attributeReader.attribute(child, entity: name) { attributes.append(attribute) }
            case "relationship":
                relationships.append(try relationship(child, entity: name))
            case "fetchedProperty":
                warn(
                    child,
                    "fetched property \(name).\(child.attributes["name"] ?? "?") is not imported: it is a stored query, not data"
                )
            case "compoundIndexes", "fetchIndex":
                warn(child, "the indexes of \(name) are not used: the store indexes keys and references itself")
            case "userInfo", "uniquenessConstraints":
                continue
            default:
                warn(child, "<\(child.name)> in entity \(name) is not used by the importer")
            }
            if let childName = child.attributes["name"], child.name == "attribute" || child.name == "relationship" {
                guard names.insert(childName).inserted else {
                    throw FilePlace(file: file, line: child.line, key: childName).error(
                        "'\(childName)' is declared twice in entity \(name)")
                }
            }
        }
        return CoreDataEntity(
            name: name, parent: element.attributes["parentEntity"],
            isAbstract: element.attributes["isAbstract"] == "YES",
            place: place, info: element.userInfo, attributes: attributes, relationships: relationships,
            renamedFrom: try CoreDataUserInfo.renamedFrom(element, place: place),
            uniquenessConstraints: element.children(named: "uniquenessConstraints").flatMap {
                $0.children(named: "uniquenessConstraint")
            }
            .map { $0.children(named: "constraint").compactMap { $0.attributes["value"] } })
    }

    private mutating func relationship(_ element: XMLElementNode, entity: String) throws
        -> CoreDataEntity.DeclaredRelationship
    {
        let place = FilePlace(file: file, line: element.line, key: element.attributes["name"])
        guard let name = element.attributes["name"] else {
            throw place.error("a relationship of '\(entity)' has no name")
        }
        try ModelChecks.checkName(name, at: place)
        guard let destination = element.attributes["destinationEntity"] else {
            throw place.error("relationship \(entity).\(name) has no destinationEntity")
        }
        let rule: DeleteRule
        switch element.attributes["deletionRule"] ?? "Nullify" {
        case "Nullify": rule = .nullify
        case "Cascade": rule = .cascade
        case "Deny": rule = .deny
        case "No Action":
            throw place.error(
                "deletion rule 'No Action' leaves references to deleted items, which the importer does not store; choose Nullify, Cascade or Deny"
            )
        case let other:
            throw place.error("deletion rule '\(other)' is unknown; use Nullify, Cascade or Deny")
        }
        let toMany = element.attributes["toMany"] == "YES"
        if toMany, element.attributes["ordered"] == "YES" {
            warn(element, "the order of \(entity).\(name) is not kept: the importer stores the to-one side only")
        }
        return .init(
            name: name, destination: destination, toMany: toMany, inverse: element.attributes["inverseName"],
            deleteRule: rule, key: element.userInfo["key"], place: place)
    }

    private mutating func warn(_ element: XMLElementNode, _ message: String) {
        ownWarnings.append(ModelWarning(file: file, line: element.line, message: message))
    }
}
