/// A computed attribute's template (`map.compute`, docs/pipeline.md#map): text with `{field}` placeholders
/// for source fields; `{{` and `}}` are literal braces.
package struct FieldTemplate: Sendable, Equatable {
    enum Part: Sendable, Equatable {
        case literal(String)
        case field(String)
    }

    let parts: [Part]

    /// The source fields the template uses, in order.
    package var fields: [String] {
        parts.compactMap { if case .field(let name) = $0 { name } else { nil } }
    }

    /// Parses `text`; the error says what is wrong with it.
    package init(parsing text: String) throws(TemplateError) {
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let character = rest.first {
            rest = rest.dropFirst()
            switch character {
            case "{" where rest.first == "{", "}" where rest.first == "}":
                literal.append(character)
                rest = rest.dropFirst()
            case "{":
                guard let close = rest.firstIndex(of: "}") else { throw .unclosed }
                let name = String(rest[..<close])
                guard !name.isEmpty, !name.contains("{") else { throw .badName(name) }
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.field(name))
                rest = rest[rest.index(after: close)...]
            case "}":
                throw .strayClose
            default:
                literal.append(character)
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        guard parts.contains(where: { if case .field = $0 { true } else { false } }) else { throw .noField }
        self.parts = parts
    }

    /// The text for one record, each field's value given by `value` of the field's place among
    /// the template's fields (as `fields` lists them): a string as it is, a JSON number,
    /// boolean, object or array as its JSON text. Nil when a field is null or missing (the
    /// computed value is null).
    func render(_ value: (Int) -> FieldValue?) -> String? {
        var text = ""
        var field = 0
        for part in parts {
            switch part {
            case .literal(let literal):
                text += literal
            case .field:
                defer { field += 1 }
                switch value(field) {
                case .text(let string)?, .number(let string)?, .composite(let string)?, .collection(_, let string)?:
                    text += string
                case .bool(let flag)?: text += flag ? "true" : "false"
                case .null?, nil: return nil
                }
            }
        }
        return text
    }
}

extension FieldTemplate {
    /// `render` of a row's cells: each field's text as its bytes (nil: the field is null or
    /// missing), by its place among the template's fields. The text is written once, into the
    /// string's own storage.
    func render(_ bytes: (Int) -> UnsafeBufferPointer<UInt8>?) -> String? {
        var count = 0, field = 0
        for part in parts {
            switch part {
            case .literal(let literal): count += literal.utf8.count
            case .field:
                guard let text = bytes(field) else { return nil }
                count += text.count
                field += 1
            }
        }
        return String(unsafeUninitializedCapacity: count) { out in
            var at = 0, field = 0
            for part in parts {
                switch part {
                case .literal(let literal):
                    at = UnsafeMutableBufferPointer(rebasing: out[at...]).initialize(from: literal.utf8).1 + at
                case .field:
                    let text = bytes(field)!
                    UnsafeMutableBufferPointer(rebasing: out[at..<at + text.count]).initialize(from: text)
                    at += text.count
                    field += 1
                }
            }
            return at
        }
    }
}

/// What is wrong with a `map.compute` template.
package enum TemplateError: Error, CustomStringConvertible, Sendable {
    case unclosed, strayClose, noField
    case badName(String)

    package var description: String {
        switch self {
        case .unclosed: "a '{' has no closing '}' (write '{{' for a literal brace)"
        case .strayClose: "a '}' closes nothing (write '}}' for a literal brace)"
        case .noField: "it uses no source field; name one as {field}"
        case .badName(let name): "'{\(name)}' is not a field name"
        }
    }
}
