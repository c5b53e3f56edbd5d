import Foundation
import ImporterAWS
import ImporterCore

/// A DynamoDB item as the JSON protocol carries it: attribute name → typed value.
package typealias DynamoItem = [String: AttributeValue]

/// One DynamoDB attribute value (`{"S": "…"}`, `{"N": "12.5"}`, …). Numbers keep their exact
/// text; binary values keep their base64 text.
///
/// A value of any other shape (two type tags, a tag with a payload of the wrong JSON type, a
/// bare string) decodes as `unrecognized`, holding a short text of what was found, so that an
/// item's decoding can name the attribute at fault instead of failing the whole response.
package enum AttributeValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case s(String)
    case n(String)
    case b(String)
    case bool(Bool)
    case null
    case l([AttributeValue])
    case m([String: AttributeValue])
    case ss([String])
    case ns([String])
    case bs([String])
    /// Not a DynamoDB attribute value: what was found, e.g. `{"BOOL": 1}`.
    case unrecognized(String)

    private struct Tag: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ text: String) { stringValue = text }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package init(from decoder: any Decoder) throws {
        let raw = try JSONValue(from: decoder)
        self = Self(raw) ?? .unrecognized(raw.description)
    }

    /// The attribute value a JSON value is, if it is one.
    private init?(_ raw: JSONValue) {
        guard case .object(let members) = raw, members.count == 1, let (tag, payload) = members.first else {
            return nil
        }
        switch (tag, payload) {
        case ("S", .string(let text)): self = .s(text)
        case ("N", .string(let text)): self = .n(text)
        case ("B", .string(let text)): self = .b(text)
        case ("BOOL", .bool(let flag)): self = .bool(flag)
        case ("NULL", .bool(true)): self = .null
        case ("L", .array(let values)):
            var list: [AttributeValue] = []
            for value in values {
                guard let element = AttributeValue(value) else { return nil }
                list.append(element)
            }
            self = .l(list)
        case ("M", .object(let values)):
            var map: [String: AttributeValue] = [:]
            for (name, value) in values {
                guard let element = AttributeValue(value) else { return nil }
                map[name] = element
            }
            self = .m(map)
        case ("SS", .array(let values)), ("NS", .array(let values)), ("BS", .array(let values)):
            let texts = values.compactMap { value -> String? in if case .string(let text) = value { text } else { nil }
            }
            guard texts.count == values.count else { return nil }
            self = tag == "SS" ? .ss(texts) : tag == "NS" ? .ns(texts) : .bs(texts)
        default: return nil
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Tag.self)
        switch self {
        case .s(let text): try container.encode(text, forKey: Tag("S"))
        case .n(let text): try container.encode(text, forKey: Tag("N"))
        case .b(let text): try container.encode(text, forKey: Tag("B"))
        case .bool(let flag): try container.encode(flag, forKey: Tag("BOOL"))
        case .null: try container.encode(true, forKey: Tag("NULL"))
        case .l(let values): try container.encode(values, forKey: Tag("L"))
        case .m(let values): try container.encode(values, forKey: Tag("M"))
        case .ss(let texts): try container.encode(texts, forKey: Tag("SS"))
        case .ns(let texts): try container.encode(texts, forKey: Tag("NS"))
        case .bs(let texts): try container.encode(texts, forKey: Tag("BS"))
        case .unrecognized(let text):
            throw EncodingError.invalidValue(
                text,
                .init(
                    codingPath: encoder.codingPath,
                    debugDescription: "not a DynamoDB attribute value: \(text)"))
        }
    }

    /// The text of an `S`, if this is one.
    package var string: String? { if case .s(let text) = self { text } else { nil } }
    /// The text of an `N`, if this is one.
    package var number: String? { if case .n(let text) = self { text } else { nil } }

    /// A short text of the value, for error messages: `{"N": "1.5"}`.
    package var description: String {
        switch self {
        case .s(let text): return #"{"S": \#(JSONValue.string(text).description)}"#
        case .n(let text): return #"{"N": \#(JSONValue.string(text).description)}"#
        case .b(let text): return #"{"B": \#(JSONValue.string(text).description)}"#
        case .bool(let flag): return #"{"BOOL": \#(flag)}"#
        case .null: return #"{"NULL": true}"#
        case .l(let values): return #"{"L": [\#(values.map(\.description).joined(separator: ", "))]}"#
        case .m(let values):
            let members = values.keys.sorted().map { "\(JSONValue.string($0).description): \(values[$0]!.description)" }
            return #"{"M": {\#(members.joined(separator: ", "))}}"#
        case .ss(let texts), .ns(let texts), .bs(let texts):
            let tag = if case .ss = self { "SS" } else if case .ns = self { "NS" } else { "BS" }
            return #"{"\#(tag)": [\#(texts.map { JSONValue.string($0).description }.joined(separator: ", "))]}"#
        case .unrecognized(let text): return text
        }
    }
}

/// Any JSON value, decoded to be described (`AttributeValue.unrecognized`).
enum JSONValue: Decodable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else if let text = try? single.decode(String.self) {
            self = .string(text)
        } else if let array = try? single.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try single.decode([String: JSONValue].self))
        }
    }

    /// JSON-like text with object members sorted: `{"N": "1", "S": "a"}`.
    var description: String {
        switch self {
        case .string(let text):
            var json: [UInt8] = []
            JSONText.appendQuoted(text, to: &json)
            return String(decoding: json, as: UTF8.self)
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            return "{"
                + members.keys.sorted().map { "\(JSONValue.string($0)): \(members[$0]!)" }.joined(separator: ", ") + "}"
        }
    }
}
