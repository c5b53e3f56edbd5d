import Foundation

/// Loads model files (YAML or Core Data's XML) and checks them, with errors that name file, line and key.
public enum ModelLoader {
    /// Loads a model file, every `*.yaml` version in a directory, or a Core Data model
    /// (`.xcdatamodeld` with its versions, or one `.xcdatamodel`).
    public static func load(path: String) throws -> VersionedModel {
        if CoreDataPackage.isCoreData(path) { return try CoreDataPackage.load(path: path) }
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
                throw ConfigurationError(
                    file: next.file, key: "version",
                    "version \(next.version) is also declared by \(previous.file); each file needs its own version")
            }
            if previous.name != next.name {
                throw ConfigurationError(
                    file: next.file, key: "model",
                    "model '\(next.name)' differs from '\(previous.name)' in \(previous.file); one directory holds one model"
                )
            }
        }
        return VersionedModel(versions: versions)
    }

    /// Loads and checks one model version: a YAML file or an `.xcdatamodel` package.
    public static func loadFile(_ file: String) throws -> Model {
        if CoreDataPackage.isCoreData(file) {
            let versions = try CoreDataPackage.load(path: file)
            guard versions.versions.count == 1 else {
                throw ConfigurationError(
                    file: file, "holds \(versions.versions.count) versions; name one of its .xcdatamodel packages")
            }
            return versions.newest
        }
        return try parse(text: YAMLNode.readText(file, what: "model file"), file: file)
    }

    /// Parses and checks model YAML text.
    public static func parse(text: String, file: String) throws -> Model {
        let root = try YAMLNode.load(text: text, file: file)
        let top = try root.fields(allowed: ["model", "version", "entities"])
        guard let nameNode = top["model"] else { throw root.error("missing 'model: NAME'") }
        guard let versionNode = top["version"] else { throw root.error("missing 'version: N'") }
        guard let entitiesNode = top["entities"] else { throw root.error("missing 'entities:'") }
        let name = try nameNode.string()
        try ModelChecks.checkName(name, at: nameNode)
        let version = try versionNode.int()
        guard version >= 1 else { throw versionNode.error("the version must be 1 or more") }

        var drafts: [EntityDraft] = []
        for (entityName, entityNode) in try entitiesNode.mapping() {
            try ModelChecks.checkName(entityName, at: entityNode)
            drafts.append(try parseEntity(entityName, entityNode))
        }
        return try ModelChecks.model(
            name: name, version: version, drafts: drafts, syntax: .yaml, file: file, place: entitiesNode)
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

    private static func parseEntity(_ name: String, _ node: YAMLNode) throws -> EntityDraft {
        let fields = try node.fields(allowed: entityKeys)
        guard let attributesNode = fields["attributes"] else {
            throw node.error("entity '\(name)' has no 'attributes:'")
        }
        var attributes: [Attribute] = []
        for (attributeName, attributeNode) in try attributesNode.mapping() {
            try ModelChecks.checkName(attributeName, at: attributeNode)
            attributes.append(try parseAttribute(attributeName, attributeNode))
        }
        var relationships: [Relationship] = []
        var relationshipPlaces: [String: any ModelPlace] = [:]
        if let relationshipsNode = fields["relationships"] {
            for (relationshipName, relationshipNode) in try relationshipsNode.mapping() {
                try ModelChecks.checkName(relationshipName, at: relationshipNode)
                if attributes.contains(where: { $0.name == relationshipName }) {
                    throw relationshipNode.error("'\(relationshipName)' is both an attribute and a relationship")
                }
                relationships.append(try parseRelationship(relationshipName, relationshipNode))
                relationshipPlaces[relationshipName] = relationshipNode
            }
        }

        func declared(_ key: String) throws -> Declared<String>? {
            try fields[key].map { Declared(value: try $0.string(), place: $0) }
        }
        return EntityDraft(
            name: name, place: node, table: try declared("table"), hashKey: try declared("hashKey"),
            rangeKey: try declared("rangeKey"), versionAttribute: try declared("versionAttribute"),
            attributes: attributes, relationships: relationships, relationshipPlaces: relationshipPlaces,
            renamedFrom: try renamedFrom(fields), line: node.line)
    }

    private static func parseAttribute(_ name: String, _ node: YAMLNode) throws -> Attribute {
        let fields = try node.fields(allowed: attributeKeys)
        guard let typeNode = fields["type"] else { throw node.error("attribute '\(name)' needs 'type:'") }
        let typeName = try typeNode.string()
        guard let type = AttributeType(rawValue: typeName) else {
            throw typeNode.error(
                "unknown type '\(typeName)'; use one of: \(AttributeType.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        let numeric = type.isInteger || [.decimal, .double, .float].contains(type)
        for bound in ["min", "max"] where fields[bound] != nil && !numeric {
            throw fields[bound]!.error(
                "'\(bound)' applies to numeric attributes only, and '\(name)' is a \(type.rawValue)")
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
            case .failure(let problem):
                throw defaultNode.error("default '\(text)' is not a valid \(type.rawValue): \(problem.message)")
            }
        }
        let maxLength = try fields["maxLength"]?.int()
        if let maxLength, maxLength < 0 { throw fields["maxLength"]!.error("maxLength cannot be negative") }
        return Attribute(
            name: name, type: type, required: try fields["required"]?.bool() ?? false,
            minimum: try fields["min"]?.double(), maximum: try fields["max"]?.double(),
            maxLength: maxLength, pattern: pattern,
            allowedValues: try fields["values"]?.strings(), defaultValue: defaultValue,
            renamedFrom: try renamedFrom(fields),
            conversion: try fields["convert"].map { try parseConversion($0, type: type) }, line: node.line)
    }

    /// `renamedFrom:`, the name in the previous version (so a name).
    private static func renamedFrom(_ fields: [String: YAMLNode]) throws -> String? {
        guard let node = fields["renamedFrom"] else { return nil }
        let name = try node.string()
        try ModelChecks.checkName(name, at: node)
        return name
    }

    /// `convert:` — exactly one of `copy`, `map` (with `from`), `datePattern` (with `from`),
    /// `join` (with `separator`), `split` (with `from`, optional `index`) or `constant`.
    static func parseConversion(_ node: YAMLNode, type: AttributeType) throws -> Conversion {
        let fields = try node.fields(allowed: conversionKeys)
        let kinds = ["copy", "map", "datePattern", "join", "split", "constant"].filter { fields[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            throw node.error(
                "convert needs exactly one of: copy, map (with from), datePattern (with from), join (with separator), split (with from), constant"
            )
        }
        let allowed: [String: Set<String>] = [
            "copy": ["copy"], "map": ["map", "from", "otherwise"], "datePattern": ["datePattern", "from"],
            "join": ["join", "separator"], "split": ["split", "from", "index"], "constant": ["constant"],
        ]
        if let extra = fields.keys.sorted().first(where: { !allowed[kind]!.contains($0) }) {
            throw fields[extra]!.error("'\(extra)' does not go with convert.\(kind)")
        }
        func from() throws -> String {
            guard let node = fields["from"] else {
                throw node.error("convert.\(kind) needs 'from: ATTRIBUTE' (an attribute of the previous version)")
            }
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
                throw fields["datePattern"]!.error(
                    "'\(pattern)' is not a date pattern; use yyyy, MM, dd (and HH, mm, ss, SSS) with literal characters"
                )
            }
            guard type == .date else {
                throw fields["datePattern"]!.error(
                    "convert.datePattern makes a date, but the attribute is a \(type.rawValue)")
            }
            return .parseDate(from: try from(), pattern: pattern)
        case "join":
            let names = try fields["join"]!.strings()
            guard !names.isEmpty else { throw fields["join"]!.error("convert.join needs a list of attributes") }
            guard let separator = fields["separator"] else {
                throw node.error("convert.join needs 'separator:' (a literal text)")
            }
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
            guard (1...2).contains(keys.count) else {
                throw keyNode.error("'key:' names one attribute, or two for a destination with a range key")
            }
        } else {
            keys = []
        }
        return Relationship(
            name: name, destination: destination, toMany: try fields["toMany"]?.bool() ?? false,
            inverse: try fields["inverse"]?.string(), keys: keys, deleteRule: deleteRule)
    }
}
