/// Something in a model file that an error can point at: a YAML node, an XML element.
protocol ModelPlace {
    func error(_ message: String) -> ConfigurationError
}

extension YAMLNode: ModelPlace {}

/// A line of a model file, with the key at fault.
struct FilePlace: ModelPlace {
    let file: String
    let line: Int?
    var key: String?

    func error(_ message: String) -> ConfigurationError {
        ConfigurationError(file: file, line: line, key: key, message)
    }
}

/// A value a model file declares, with where it declares it.
struct Declared<Value> {
    let value: Value
    let place: any ModelPlace
}

/// How a model file spells a declaration, so that a message says what to write in *that* file.
enum ModelSyntax {
    case yaml
    /// Core Data's `contents` XML, with the AWS Persistence Framework's `userInfo` entries.
    case coreData

    /// `'hashKey: ATTRIBUTE'`, or `the userInfo entry hashKey = ATTRIBUTE`.
    func declaration(_ key: String, _ value: String) -> String {
        switch self {
        case .yaml: "'\(key): \(value)'"
        case .coreData: "the userInfo entry \(key) = \(value)"
        }
    }
}

/// An entity as a model file declares it, before its keys and relationships are checked
/// (`ModelChecks`); YAML and Core Data XML both read into it.
struct EntityDraft {
    let name: String
    let place: any ModelPlace
    var table: Declared<String>?
    var hashKey: Declared<String>?
    var rangeKey: Declared<String>?
    var versionAttribute: Declared<String>?
    var attributes: [Attribute]
    var relationships: [Relationship]
    /// Where each relationship is declared, by name.
    var relationshipPlaces: [String: any ModelPlace]
    var renamedFrom: String?
    let line: Int?
}
