import Foundation

/// Loads model files (YAML) and checks them, with errors that name file, line and key.
public enum ModelLoader {
    /// Loads a model file, or every `*.yaml` version in a directory.
    public static func load(path: String) throws -> VersionedModel {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigurationError(file: path, "the model file or directory does not exist")
        }
        guard isDirectory.boolValue else { return VersionedModel(versions: [try loadFile(path)]) }
        let files = try FileManager.default.contentsOfDirectory(atPath: path)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
            .sorted()
            .map { FilePaths.join(path, $0) }
        guard !files.isEmpty else {
            throw ConfigurationError(file: path, "the model directory holds no *.yaml model versions")
        }
        let versions = try files.map(loadFile).sorted { $0.version < $1.version }
        for (previous, next) in zip(versions, versions.dropFirst()) {
            if previous.version == next.version {
                throw ConfigurationError(file: next.file, key: "version",
                    "version \(next.version) is also declared by \(previous.file); each file needs its own version")
            }
            if previous.name != next.name {
                throw ConfigurationError(file: next.file, key: "model",
                    "model '\(next.name)' differs from '\(previous.name)' in \(previous.file); one directory holds one model")
            }
        }
        return VersionedModel(versions: versions)
    }

    /// Loads and checks one model version file.
    public static func loadFile(_ file: String) throws -> Model {
        try parse(text: YAMLNode.readText(file, what: "model file"), file: file)
    }

    /// Parses and checks model YAML text.
    public static func parse(text: String, file: String) throws -> Model {
        let root = try YAMLNode.load(text: text, file: file)
        let top = try root.fields(allowed: ["model", "version", "entities"])
        guard let nameNode = top["model"] else { throw root.error("missing 'model: NAME'") }
        guard let versionNode = top["version"] else { throw root.error("missing 'version: N'") }
        guard let entitiesNode = top["entities"] else { throw root.error("missing 'entities:'") }
        let name = try nameNode.string()
        try checkName(name, at: nameNode)
        let version = try versionNode.int()
        guard version >= 1 else { throw versionNode.error("the version must be 1 or more") }

        var entities: [Entity] = []
        var entityNodes: [String: YAMLNode] = [:]
        for (entityName, entityNode) in try entitiesNode.mapping() {
            try checkName(entityName, at: entityNode)
            entities.append(try parseEntity(entityName, entityNode))
            entityNodes[entityName] = entityNode
        }
        guard !entities.isEmpty else { throw entitiesNode.error("the model declares no entities") }
        try checkRelationships(entities, entityNodes)
        var tables: [String: String] = [:]
        for entity in entities {
            if let other = tables[entity.table.lowercased()] {
                throw entityNodes[entity.name]!.error("table '\(entity.table)' is also used by entity '\(other)'")
            }
            tables[entity.table.lowercased()] = entity.name
        }
        return Model(name: name, version: version, entities: entities,
                     checksum: SHA256.hex(of: Array(canonicalDescription(name, version, entities).utf8)), file: file)
    }

    private static let entityKeys: Set<String> = [
        "table", "hashKey", "rangeKey", "versionAttribute", "attributes", "relationships", "renamedFrom",
    ]
    private static let attributeKeys: Set<String> = [
        "type", "required", "min", "max", "maxLength", "pattern", "values", "default", "renamedFrom", "convert",
    ]
    private static let conversionKeys: Set<String> = [
        "copy", "from", "map", "otherwise", "datePattern", "join", "separator", "split", "index", "constant",
    ]
    private static let relationshipKeys: Set<String> = [
        "destination", "toMany", "inverse", "key", "deleteRule",
    ]

    private static func parseEntity(_ name: String, _ node: YAMLNode) throws -> Entity {
        let fields = try node.fields(allowed: entityKeys)
        guard let attributesNode = fields["attributes"] else { throw node.error("entity '\(name)' has no 'attributes:'") }
        var attributes: [Attribute] = []
        for (attributeName, attributeNode) in try attributesNode.mapping() {
            try checkName(attributeName, at: attributeNode)
            attributes.append(try parseAttribute(attributeName, attributeNode))
        }
        var relationships: [Relationship] = []
        if let relationshipsNode = fields["relationships"] {
            for (relationshipName, relationshipNode) in try relationshipsNode.mapping() {
                try checkName(relationshipName, at: relationshipNode)
                if attributes.contains(where: { $0.name == relationshipName }) {
                    throw relationshipNode.error("'\(relationshipName)' is both an attribute and a relationship")
                }
                relationships.append(try parseRelationship(relationshipName, relationshipNode))
            }
        }

        guard let hashKeyNode = fields["hashKey"] else { throw node.error("entity '\(name)' needs 'hashKey: ATTRIBUTE'") }
        let hashKey = try hashKeyNode.string()
        guard let keyAttribute = attributes.first(where: { $0.name == hashKey }) else {
            throw hashKeyNode.error("hash key '\(hashKey)' is not an attribute of '\(name)'")
        }
        guard keyAttribute.type.canBeKey else {
            throw hashKeyNode.error("hash key '\(hashKey)' is a \(keyAttribute.type.rawValue); a hash key must be a string or numeric attribute")
        }
        guard let versionNode = fields["versionAttribute"] else {
            throw node.error("entity '\(name)' needs 'versionAttribute: ATTRIBUTE' (an int64 attribute the tool manages)")
        }
        let versionAttribute = try versionNode.string()
        guard let version = attributes.first(where: { $0.name == versionAttribute }) else {
            throw versionNode.error("version attribute '\(versionAttribute)' is not an attribute of '\(name)'; add '\(versionAttribute): { type: int64 }'")
        }
        guard version.type == .int64 else {
            throw versionNode.error("version attribute '\(versionAttribute)' must be int64, not \(version.type.rawValue)")
        }
        guard versionAttribute != hashKey else { throw versionNode.error("the version attribute cannot be the hash key") }
        let rangeKey = try fields["rangeKey"].map { try parseRangeKey($0, entity: name, hashKey: hashKey,
                                                                      versionAttribute: versionAttribute, attributes: attributes) }

        let table = try fields["table"]?.string() ?? name
        if let reason = tableNameProblem(table) {
            throw (fields["table"] ?? node).error("table name '\(table)': \(reason)")
        }
        return Entity(name: name, table: table, hashKey: hashKey, rangeKey: rangeKey, versionAttribute: versionAttribute,
                      attributes: attributes, relationships: relationships,
                      renamedFrom: try fields["renamedFrom"]?.string(), line: node.line)
    }

    /// The sort key (SPEC §14): a string, integer, decimal or date attribute other than the hash
    /// key and the version attribute.
    private static func parseRangeKey(_ node: YAMLNode, entity: String, hashKey: String, versionAttribute: String,
                                      attributes: [Attribute]) throws -> String {
        let rangeKey = try node.string()
        guard let attribute = attributes.first(where: { $0.name == rangeKey }) else {
            throw node.error("range key '\(rangeKey)' is not an attribute of '\(entity)'")
        }
        guard rangeKey != hashKey, rangeKey != versionAttribute else {
            throw node.error("the range key must be another attribute than the hash key and the version attribute")
        }
        guard attribute.type.canBeKey || attribute.type == .date else {
            throw node.error("range key '\(rangeKey)' is a \(attribute.type.rawValue); a range key must be a string, integer, decimal or date attribute")
        }
        return rangeKey
    }

    private static func parseAttribute(_ name: String, _ node: YAMLNode) throws -> Attribute {
        let fields = try node.fields(allowed: attributeKeys)
        guard let typeNode = fields["type"] else { throw node.error("attribute '\(name)' needs 'type:'") }
        let typeName = try typeNode.string()
        guard let type = AttributeType(rawValue: typeName) else {
            throw typeNode.error("unknown type '\(typeName)'; use one of: \(AttributeType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let numeric = type.isInteger || [.decimal, .double, .float].contains(type)
        for bound in ["min", "max"] where fields[bound] != nil && !numeric {
            throw fields[bound]!.error("'\(bound)' applies to numeric attributes only, and '\(name)' is a \(type.rawValue)")
        }
        if let lengthNode = fields["maxLength"], type != .string && type != .uri {
            throw lengthNode.error("'maxLength' applies to string and uri attributes only")
        }
        let pattern = try fields["pattern"]?.string()
        if let pattern, (try? NSRegularExpression(pattern: pattern)) == nil {
            throw fields["pattern"]!.error("'\(pattern)' is not a valid regular expression")
        }
        var defaultValue: Value?
        if let defaultNode = fields["default"], !defaultNode.isNull {
            let text = try defaultNode.string()
            switch ValueCoercion.coerce(.text(text), to: type, dateFormat: .iso8601) {
            case .success(let value): defaultValue = value
            case .failure(let problem): throw defaultNode.error("default '\(text)' is not a valid \(type.rawValue): \(problem.message)")
            }
        }
        let maxLength = try fields["maxLength"]?.int()
        if let maxLength, maxLength < 0 { throw fields["maxLength"]!.error("maxLength cannot be negative") }
        return Attribute(
            name: name, type: type, required: try fields["required"]?.bool() ?? false,
            minimum: try fields["min"]?.double(), maximum: try fields["max"]?.double(),
            maxLength: maxLength, pattern: pattern,
            allowedValues: try fields["values"]?.strings(), defaultValue: defaultValue,
            renamedFrom: try fields["renamedFrom"]?.string(),
            conversion: try fields["convert"].map { try parseConversion($0, type: type) }, line: node.line)
    }

    /// `convert:` — exactly one of `copy`, `map` (with `from`), `datePattern` (with `from`),
    /// `join` (with `separator`), `split` (with `from`, optional `index`) or `constant`.
    private static func parseConversion(_ node: YAMLNode, type: AttributeType) throws -> Conversion {
        let fields = try node.fields(allowed: conversionKeys)
        let kinds = ["copy", "map", "datePattern", "join", "split", "constant"].filter { fields[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            throw node.error("convert needs exactly one of: copy, map (with from), datePattern (with from), join (with separator), split (with from), constant")
        }
        let allowed: [String: Set<String>] = [
            "copy": ["copy"], "map": ["map", "from", "otherwise"], "datePattern": ["datePattern", "from"],
            "join": ["join", "separator"], "split": ["split", "from", "index"], "constant": ["constant"],
        ]
        if let extra = fields.keys.sorted().first(where: { !allowed[kind]!.contains($0) }) {
            throw fields[extra]!.error("'\(extra)' does not go with convert.\(kind)")
        }
        func from() throws -> String {
            guard let node = fields["from"] else { throw node.error("convert.\(kind) needs 'from: ATTRIBUTE' (an attribute of the previous version)") }
            return try node.string()
        }
        switch kind {
        case "copy":
            return .copy(from: try fields["copy"]!.string())
        case "map":
            var values: [String: String] = [:]
            for (key, value) in try fields["map"]!.mapping() { values[key] = try value.string() }
            let otherwise = try fields["otherwise"].flatMap { $0.isNull ? nil : try $0.string() }
            return .map(from: try from(), values: values, otherwise: otherwise)
        case "datePattern":
            let pattern = try fields["datePattern"]!.string()
            guard DatePattern.isValid(pattern) else {
                throw fields["datePattern"]!.error("'\(pattern)' is not a date pattern; use yyyy, MM, dd (and HH, mm, ss, SSS) with literal characters")
            }
            guard type == .date else { throw fields["datePattern"]!.error("convert.datePattern makes a date, but the attribute is a \(type.rawValue)") }
            return .parseDate(from: try from(), pattern: pattern)
        case "join":
            let names = try fields["join"]!.strings()
            guard !names.isEmpty else { throw fields["join"]!.error("convert.join needs a list of attributes") }
            guard let separator = fields["separator"] else { throw node.error("convert.join needs 'separator:' (a literal text)") }
            return .join(names, separator: try separator.string())
        case "split":
            let separator = try fields["split"]!.string()
            guard !separator.isEmpty else { throw fields["split"]!.error("convert.split needs a non-empty separator") }
            let index = try fields["index"]?.int() ?? 0
            guard index >= 0 else { throw fields["index"]!.error("convert.index counts parts from 0") }
            return .split(from: try from(), separator: separator, index: index)
        default:
            let constant = fields["constant"]!
            return .constant(constant.isNull ? nil : try constant.string())
        }
    }

    private static func parseRelationship(_ name: String, _ node: YAMLNode) throws -> Relationship {
        let fields = try node.fields(allowed: relationshipKeys)
        guard let destination = try fields["destination"]?.string() else {
            throw node.error("relationship '\(name)' needs 'destination: ENTITY'")
        }
        var deleteRule = DeleteRule.nullify
        if let ruleNode = fields["deleteRule"] {
            let text = try ruleNode.string()
            guard let rule = DeleteRule(rawValue: text) else {
                throw ruleNode.error("unknown deleteRule '\(text)'; use nullify, cascade or deny")
            }
            deleteRule = rule
        }
        // `key: sku`, or `key: [stationId, hour]` for a destination with a range key.
        let keys: [String]
        if let keyNode = fields["key"] {
            keys = try (try? keyNode.strings()) ?? [keyNode.string()]
            guard (1...2).contains(keys.count) else { throw keyNode.error("'key:' names one attribute, or two for a destination with a range key") }
        } else {
            keys = []
        }
        return Relationship(name: name, destination: destination, toMany: try fields["toMany"]?.bool() ?? false,
                            inverse: try fields["inverse"]?.string(), keys: keys, deleteRule: deleteRule)
    }

    private static func checkRelationships(_ entities: [Entity], _ nodes: [String: YAMLNode]) throws {
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
        for entity in entities {
            let entityNode = nodes[entity.name]!
            for relationship in entity.relationships {
                let at = { (message: String) in
                    ConfigurationError(file: entityNode.file, line: relationshipLine(entityNode, relationship.name),
                                       key: relationship.name, message)
                }
                guard let destination = byName[relationship.destination] else {
                    throw at("destination '\(relationship.destination)' is not an entity of this model")
                }
                // A to-one may go without an inverse (as in Core Data); a to-many is the inverse of a to-one.
                if let inverseName = relationship.inverse {
                    guard let inverse = destination.relationships.first(where: { $0.name == inverseName }) else {
                        throw at("inverse '\(inverseName)' is not a relationship of '\(destination.name)'")
                    }
                    guard inverse.destination == entity.name, inverse.inverse == relationship.name else {
                        throw at("inverse '\(destination.name).\(inverseName)' does not point back to '\(entity.name).\(relationship.name)'")
                    }
                    if relationship.toMany && inverse.toMany {
                        throw at("many-to-many relationships are not supported; model the link as an entity of its own")
                    }
                } else if relationship.toMany {
                    throw at("missing 'inverse:'; a to-many relationship needs the to-one relationship of '\(destination.name)' that points back")
                }
                if relationship.toMany {
                    if relationship.isToOne { throw at("'key:' belongs on the to-one side, not on a to-many relationship") }
                    continue
                }
                guard !relationship.keys.isEmpty else {
                    throw at("a to-one relationship needs 'key:', the attribute holding the \(destination.name)'s \(destination.hashKey)")
                }
                guard relationship.keys.count == destination.keyAttributes.count else {
                    let wanted = destination.keyAttributes.joined(separator: ", ")
                    throw at("'key:' names \(relationship.keys.count) attribute(s), but \(destination.name) is keyed by \(destination.keyAttributes.count) (\(wanted)); write key: [\(wanted)] with this entity's attributes holding them")
                }
                for (keyName, destinationKeyName) in zip(relationship.keys, destination.keyAttributes) {
                    guard let keyAttribute = entity.attribute(named: keyName) else {
                        throw at("key '\(keyName)' is not an attribute of '\(entity.name)'")
                    }
                    let destinationKey = destination.attribute(named: destinationKeyName)!
                    guard keyAttribute.type == destinationKey.type else {
                        throw at("key '\(keyName)' is a \(keyAttribute.type.rawValue) but \(destination.name).\(destinationKeyName) is a \(destinationKey.type.rawValue)")
                    }
                }
            }
        }
    }

    private static func relationshipLine(_ entityNode: YAMLNode, _ name: String) -> Int? {
        guard let relationships = entityNode.node.mapping?["relationships"]?.mapping else { return entityNode.line }
        for (key, value) in relationships where key.string == name { return value.mark?.line ?? key.mark?.line }
        return entityNode.line
    }

    private static func checkName(_ name: String, at node: YAMLNode) throws {
        guard isValidName(name) else {
            throw ConfigurationError(file: node.file, line: node.line, key: name,
                                     "'\(name)' is not a valid name; use letters, digits and _ and do not start with a digit")
        }
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || (48...57).contains($0) }
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

    /// A stable text of everything that affects stored data, for the checksum.
    private static func canonicalDescription(_ name: String, _ version: Int, _ entities: [Entity]) -> String {
        var text = "model \(name) \(version)\n"
        for entity in entities {
            text += "entity \(entity.name) table=\(entity.table) key=\(entity.hashKey)\(entity.rangeKey.map { " range=\($0)" } ?? "") version=\(entity.versionAttribute) renamedFrom=\(entity.renamedFrom ?? "")\n"
            for a in entity.attributes {
                text += "  attribute \(a.name) \(a.type.rawValue) required=\(a.required) min=\(a.minimum.map { "\($0)" } ?? "") max=\(a.maximum.map { "\($0)" } ?? "") maxLength=\(a.maxLength.map { "\($0)" } ?? "") pattern=\(a.pattern ?? "") values=\(a.allowedValues?.joined(separator: "|") ?? "") default=\(a.defaultValue.map { "\($0)" } ?? "") renamedFrom=\(a.renamedFrom ?? "")\(a.conversion.map { " convert=\($0)" } ?? "")\n"
            }
            for r in entity.relationships {
                text += "  relationship \(r.name) -> \(r.destination) toMany=\(r.toMany) inverse=\(r.inverse ?? "") key=\(r.keys.joined(separator: ",")) deleteRule=\(r.deleteRule.rawValue)\n"
            }
        }
        return text
    }
}
