import Foundation

/// The `userInfo` entries a Core Data model carries for the importer, beyond the AWS
/// Persistence Framework's `hashKey`, `rangeKey`, `versionAttribute`, `table` and `key`:
/// an attribute's `values` (a YAML list) and `convert` (a YAML mapping, as in a YAML model).
enum CoreDataUserInfo {
    /// `[bad, ok, good]` as its texts.
    static func list(_ text: String, place: FilePlace) throws -> [String] {
        try withYAML(text, entry: "values", place: place) { try $0.strings() }
    }

    /// `{ from: rating, map: { "1": bad } }` as a conversion.
    static func conversion(_ text: String, type: AttributeType, place: FilePlace) throws -> Conversion {
        try withYAML(text, entry: "convert", place: place) { try ModelLoader.parseConversion($0, type: type) }
    }

    /// The renaming identifier (Xcode's `elementID`, or `renamingIdentifier`): the name in the
    /// previous version, so it must be a name.
    static func renamedFrom(_ element: XMLElementNode, place: FilePlace) throws -> String? {
        guard let identifier = element.attributes["renamingIdentifier"] ?? element.attributes["elementID"] else {
            return nil
        }
        guard ModelChecks.isValidName(identifier) else {
            throw place.error(
                "renaming identifier '\(identifier)' must be the name in the previous version (letters, digits and _)")
        }
        return identifier
    }

    /// `key`: `locationId`, or `stationId,hour` for a destination with a range key.
    static func keys(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces)) }
    }

    private static func withYAML<T>(_ text: String, entry: String, place: FilePlace, _ body: (YAMLNode) throws -> T)
        throws -> T
    {
        do {
            return try body(YAMLNode.load(text: text, file: place.file))
        } catch let error as ConfigurationError {
            throw place.error("the userInfo entry \(entry) '\(text)': \(error.message)")
        }
    }
}

extension XMLElementNode {
    /// `<userInfo><entry key="hashKey" value="locationId"/></userInfo>` as a dictionary.
    var userInfo: [String: String] {
        var entries: [String: String] = [:]
        for info in children(named: "userInfo") {
            for entry in info.children(named: "entry") {
                if let key = entry.attributes["key"] { entries[key] = entry.attributes["value"] ?? "" }
            }
        }
        return entries
    }
}
