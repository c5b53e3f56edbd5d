import Foundation
import Yams

/// A YAML node with the file it came from, so every error can name file, line and key.
struct YAMLNode {
    let node: Node
    let file: String
    /// The key this node was found under, for error messages.
    let key: String?

    /// The largest pipeline or model file read: far above any real one, low enough that a huge
    /// or hostile document is refused at once instead of being parsed.
    static let maximumBytes = 4 << 20

    /// The UTF-8 text of the file at `path`; `what` names it in errors ("pipeline file").
    static func readText(_ path: String, what: String) throws -> String {
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maximumBytes {
            throw ConfigurationError(
                file: path, "the \(what) is \(size) bytes; at most \(maximumBytes) are read (is it the right file?)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(file: path, "cannot read the \(what); check the path")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(file: path, "the \(what) is not UTF-8 text")
        }
        return text
    }

    static func load(text: String, file: String) throws -> YAMLNode {
        guard text.utf8.count <= maximumBytes else {
            throw ConfigurationError(
                file: file,
                "the file is \(text.utf8.count) bytes; at most \(maximumBytes) are read (is it the right file?)")
        }
        if let line = YAMLAliasCheck.explodingAliasLine(in: text) {
            throw ConfigurationError(
                file: file, line: line,
                "its aliases (*name) expand the document past \(YAMLAliasCheck.maximumNodes) nodes; refused (an alias bomb?)"
            )
        }
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw ConfigurationError(file: file, line: 1, "the file is empty")
            }
            return YAMLNode(node: node, file: file, key: nil)
        } catch let error as ConfigurationError {
            throw error
        } catch let error as YamlError {
            throw ConfigurationError(file: file, line: Self.line(of: error), "is not valid YAML: \(error)")
        }
    }

    private static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return mark.line
        default:
            return nil
        }
    }

    var line: Int? { node.mark?.line }

    func error(_ message: String) -> ConfigurationError {
        ConfigurationError(file: file, line: line, key: key, message)
    }

    /// The entries of a mapping, in file order; unknown keys are refused.
    func mapping(allowed: Set<String>? = nil) throws -> [(key: String, value: YAMLNode)] {
        guard let mapping = node.mapping else {
            throw error("expected a mapping (key: value lines)")
        }
        var entries: [(key: String, value: YAMLNode)] = []
        var seen = Set<String>()
        for (keyNode, valueNode) in mapping {
            guard let name = keyNode.scalar?.string else {
                throw ConfigurationError(file: file, line: keyNode.mark?.line, "a key must be a plain name")
            }
            if let allowed, !allowed.contains(name) {
                throw ConfigurationError(
                    file: file, line: keyNode.mark?.line, key: name,
                    "unknown key; expected one of: \(allowed.sorted().joined(separator: ", "))")
            }
            if !seen.insert(name).inserted {
                throw ConfigurationError(file: file, line: keyNode.mark?.line, key: name, "the key appears twice")
            }
            entries.append((name, YAMLNode(node: valueNode, file: file, key: name)))
        }
        return entries
    }

    /// The entries of a mapping as a dictionary, with unknown keys refused.
    func fields(allowed: Set<String>) throws -> [String: YAMLNode] {
        Dictionary(uniqueKeysWithValues: try mapping(allowed: allowed).map { ($0.key, $0.value) })
    }

    func sequence() throws -> [YAMLNode] {
        guard let sequence = node.sequence else { throw error("expected a list") }
        return sequence.map { YAMLNode(node: $0, file: file, key: key) }
    }

    var isNull: Bool {
        node.scalar.map { $0.tag == Tag(.null) || ($0.string == "~" || $0.string == "null") && $0.style == .plain }
            ?? false
    }

    func string() throws -> String {
        guard let scalar = node.scalar else { throw error("expected a single value, not a list or mapping") }
        return scalar.string
    }

    func int() throws -> Int {
        guard let value = Int(try string()) else { throw error("expected a whole number") }
        return value
    }

    func double() throws -> Double {
        guard let value = Double(try string()), value.isFinite else { throw error("expected a number") }
        return value
    }

    func bool() throws -> Bool {
        switch try string().lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw error("expected true or false")
        }
    }

    func strings() throws -> [String] {
        try sequence().map { try $0.string() }
    }
}
