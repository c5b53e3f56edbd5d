import Foundation
import ImporterCore

/// JSON text written byte by byte: the bodies of the requests on the write path (`PutItem`,
/// `BatchWriteItem`, `TransactWriteItems`, `BatchGetItem`, `GetItem`), where Foundation's
/// `JSONEncoder` took about 40% of a blind load's CPU. Commas are placed by the writer: a
/// member or element that follows a value is preceded by one.
struct JSONBodyWriter {
    private var bytes: [UInt8] = []
    /// A value was just written at this level: the next member or element needs a comma.
    private var afterValue = false

    private init() { bytes.reserveCapacity(1024) }

    /// A request body: the one value `value` writes.
    static func body(_ value: (inout JSONBodyWriter) throws -> Void) rethrows -> Data {
        var json = JSONBodyWriter()
        try value(&json)
        return Data(json.bytes)
    }

    mutating func object(_ body: (inout JSONBodyWriter) throws -> Void) rethrows {
        open(UInt8(ascii: "{"))
        try body(&self)
        close(UInt8(ascii: "}"))
    }

    mutating func array(_ body: (inout JSONBodyWriter) throws -> Void) rethrows {
        open(UInt8(ascii: "["))
        try body(&self)
        close(UInt8(ascii: "]"))
    }

    /// A member's name; its value is written next.
    mutating func key(_ name: String) {
        separate()
        JSONText.appendQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func string(_ text: String) {
        separate()
        JSONText.appendQuoted(text, to: &bytes)
        afterValue = true
    }

    mutating func bool(_ flag: Bool) {
        separate()
        bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        afterValue = true
    }

    /// A member whose value is a string, left out when nil (as `JSONEncoder` leaves out nil optionals).
    mutating func member(_ name: String, _ text: String?) {
        guard let text else { return }
        key(name)
        string(text)
    }

    /// A member whose value is an object of strings, left out when nil.
    mutating func member(_ name: String, _ texts: [String: String]?) {
        guard let texts else { return }
        key(name)
        object { json in
            for (key, text) in texts { json.member(key, text) }
        }
    }

    /// A member whose value is an array of strings.
    mutating func strings(_ name: String, _ texts: [String]) {
        key(name)
        array { json in for text in texts { json.string(text) } }
    }

    /// A member whose value is an item, left out when nil.
    mutating func member(_ name: String, _ item: DynamoItem?) throws {
        guard let item else { return }
        key(name)
        try self.item(item)
    }

    /// A member whose value is an item, typed or already JSON text.
    mutating func member(_ name: String, _ content: ItemContent) throws {
        key(name)
        switch content {
        case .attributes(let item): try self.item(item)
        case .text(let text):
            separate()
            bytes.append(contentsOf: text)
            afterValue = true
        }
    }

    mutating func item(_ item: DynamoItem) throws {
        try object { json in
            for (name, value) in item {
                json.key(name)
                try json.attributeValue(value)
            }
        }
    }

    /// `{"S": "…"}` and the other tags, as `AttributeValue.encode(to:)` writes them.
    mutating func attributeValue(_ value: AttributeValue) throws {
        try object { json in
            switch value {
            case .s(let text): json.member("S", text)
            case .n(let text): json.member("N", text)
            case .b(let text): json.member("B", text)
            case .bool(let flag): json.key("BOOL"); json.bool(flag)
            case .null: json.key("NULL"); json.bool(true)
            case .l(let values):
                json.key("L")
                try json.array { json in for value in values { try json.attributeValue(value) } }
            case .m(let values):
                json.key("M")
                try json.item(values)
            case .ss(let texts): json.strings("SS", texts)
            case .ns(let texts): json.strings("NS", texts)
            case .bs(let texts): json.strings("BS", texts)
            case .unrecognized(let text):
                throw EncodingError.invalidValue(
                    text, .init(codingPath: [], debugDescription: "not a DynamoDB attribute value: \(text)"))
            }
        }
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        afterValue = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        afterValue = true
    }

    private mutating func separate() {
        if afterValue { bytes.append(UInt8(ascii: ",")) }
        afterValue = false
    }
}
