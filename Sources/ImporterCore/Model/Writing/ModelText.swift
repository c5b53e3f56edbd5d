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
        "[" + texts.map(quoted).joined(separator: ", ") + "]"
    }

    /// `text` in double quotes, readable as YAML and as JSON: quotes, backslashes and every
    /// character YAML does not allow unescaped (controls, DEL, C1 controls, U+FFFE/U+FFFF)
    /// as `\uXXXX` escapes.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default:
                if isYAMLPrintable(scalar) {
                    result.unicodeScalars.append(scalar)
                } else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                }
            }
        }
        return result + "\""
    }

    /// YAML 1.1's printable characters that are not line breaks (NEL, U+2028 and U+2029 would
    /// be folded): what may stand unescaped in a double-quoted scalar.
    private static func isYAMLPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2028, 0x2029: return false
        case 0x20...0x7E, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// `{"from": "rating", "map": {"1": "bad"}}`: the `convert:` mapping a model file declares.
    static func conversion(_ conversion: Conversion) -> String {
        func text(_ value: String?) -> String { value.map(quoted) ?? "null" }
        let fields: [(String, String)]
        switch conversion {
        case .copy(let from):
            fields = [("copy", text(from))]
        case .map(let from, let values, let otherwise):
            let pairs = values.sorted { $0.key < $1.key }.map { "\(quoted($0.key)): \(quoted($0.value))" }
            fields =
                [("from", text(from)), ("map", "{" + pairs.joined(separator: ", ") + "}")]
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
        return "{" + fields.map { "\(quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// `text` as a YAML scalar: plain when it is a simple word or number, else quoted.
    static func yamlScalar(_ text: String) -> String {
        let plain = text.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                || "_.+-".utf8.contains(byte)
        }
        let special =
            ["null", "Null", "NULL", "~", ""].contains(text)
            || text.hasPrefix("-") && !text.dropFirst().allSatisfy(\.isNumber)
        return plain && !special ? text : quoted(text)
    }

    /// A default value as the text a model file gives it (dates in ISO 8601, bytes in base64).
    static func defaultText(_ value: Value) -> String { value.description }
}
