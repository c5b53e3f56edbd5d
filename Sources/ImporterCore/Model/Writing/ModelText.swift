/// Texts shared by the model writers: a bound as a model file writes it, a value list and a
/// conversion as YAML flow text (JSON, which YAML reads too).
enum ModelText {
    /// `90`, `-0.5`, `1e+20`: integral bounds without a trailing `.0`; exact either way.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `["bad", "ok", "good"]`
    static func list(_ texts: [String]) -> String {
        "[" + texts.map(JSONText.quote).joined(separator: ", ") + "]"
    }

    /// `{"from": "rating", "map": {"1": "bad"}}`: the `convert:` mapping a model file declares.
    static func conversion(_ conversion: Conversion) -> String {
        func text(_ value: String?) -> String { value.map(JSONText.quote) ?? "null" }
        let fields: [(String, String)]
        switch conversion {
        case .copy(let from):
            fields = [("copy", text(from))]
        case .map(let from, let values, let otherwise):
            let pairs = values.sorted { $0.key < $1.key }.map { "\(JSONText.quote($0.key)): \(JSONText.quote($0.value))" }
            fields = [("from", text(from)), ("map", "{" + pairs.joined(separator: ", ") + "}")]
                + (otherwise.map { [("otherwise", text($0))] } ?? [])
        case .parseDate(let from, let pattern):
            fields = [("from", text(from)), ("datePattern", text(pattern))]
        case .join(let names, let separator):
            fields = [("join", list(names)), ("separator", text(separator))]
        case .split(let from, let separator, let index):
            fields = [("from", text(from)), ("split", text(separator)), ("index", String(index))]
        case .constant(let value):
            fields = [("constant", text(value))]
        }
        return "{" + fields.map { "\(JSONText.quote($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// `text` as a YAML scalar: plain when it is a simple word or number, else quoted.
    static func yamlScalar(_ text: String) -> String {
        let plain = text.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || "_.+-".utf8.contains(byte)
        }
        let special = ["null", "Null", "NULL", "~", ""].contains(text) || text.hasPrefix("-") && !text.dropFirst().allSatisfy(\.isNumber)
        return plain && !special ? text : JSONText.quote(text)
    }

    /// A default value as the text a model file gives it (dates in ISO 8601, bytes in base64).
    static func defaultText(_ value: Value) -> String { value.description }
}
