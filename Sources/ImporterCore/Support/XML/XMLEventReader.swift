/// One step of an XML document, in document order.
enum XMLEvent: Equatable {
    /// `<name a="1">` (a self-closing element gives `.start` then `.end`).
    case start(name: String, attributes: [String: String], line: Int)
    case end(name: String, line: Int)
    /// Character data that is not only whitespace, entities resolved.
    case text(String, line: Int)
}

/// A mistake in an XML document: where it is and what is wrong.
struct XMLSyntaxError: Error, Equatable {
    let line: Int
    let message: String
}

/// A streaming (pull) reader of XML 1.0 documents such as Core Data's `contents` files and
/// property lists: it hands out one event at a time and builds no tree.
///
/// It is strict where leniency would be a risk: the document must be UTF-8 and well formed;
/// only XML's five predefined entities and character references are expanded; a DOCTYPE is
/// read past but never followed, and one with an internal subset (where entities are declared)
/// is refused, so no entity can expand without bound and no other file or URL is ever read.
struct XMLEventReader {
    /// The deepest nesting accepted: far above any model, low enough for a hostile file.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    private var open: [String] = []
    private var sawRoot = false
    private var pendingEnd: (name: String, line: Int)?

    init(bytes: [UInt8]) throws(XMLSyntaxError) {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw XMLSyntaxError(line: 1, message: "the file is not UTF-8 text")
        }
        // XML 1.0 allows no control character but tab, line feed and carriage return.
        if let index = bytes.firstIndex(where: { $0 < 0x20 && $0 != 9 && $0 != 10 && $0 != 13 }) {
            let line = 1 + bytes[..<index].count { $0 == 10 }
            throw XMLSyntaxError(
                line: line,
                message: "control character 0x\(String(bytes[index], radix: 16, uppercase: true)) is not allowed in XML"
            )
        }
        self.bytes = bytes
    }

    /// The next event, or nil at the end of a complete document.
    mutating func next() throws(XMLSyntaxError) -> XMLEvent? {
        if let end = pendingEnd {
            pendingEnd = nil
            return .end(name: end.name, line: end.line)
        }
        while position < bytes.count {
            if bytes[position] != UInt8(ascii: "<") {
                if let text = try characterData() { return text }
                continue
            }
            if let event = try markup() { return event }
        }
        if let unclosed = open.last { throw fail("the document ends inside <\(unclosed)>; add </\(unclosed)>") }
        guard sawRoot else { throw fail("the document has no root element") }
        return nil
    }

    // MARK: Markup

    private mutating func markup() throws(XMLSyntaxError) -> XMLEvent? {
        if starts(with: "<?") { try skip(past: "?>", what: "processing instruction"); return nil }
        if starts(with: "<!--") { try skipComment(); return nil }
        if starts(with: "<![CDATA[") { return try cdata() }
        if starts(with: "<!DOCTYPE") { try doctype(); return nil }
        if starts(with: "</") { return try endTag() }
        return try startTag()
    }

    private mutating func startTag() throws(XMLSyntaxError) -> XMLEvent {
        let tagLine = line
        position += 1
        let name = try self.name(what: "element name")
        if open.isEmpty && sawRoot { throw fail("a second root element <\(name)>; an XML document has one") }
        var attributes: [String: String] = [:]
        while true {
            let hadSpace = skipWhitespace()
            guard position < bytes.count else { throw fail("the document ends inside the tag <\(name)>") }
            if starts(with: "/>") {
                position += 2
                sawRoot = true
                pendingEnd = (name, line)
                return .start(name: name, attributes: attributes, line: tagLine)
            }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                sawRoot = true
                open.append(name)
                guard open.count <= Self.maximumDepth else {
                    throw fail("elements nest deeper than \(Self.maximumDepth) levels")
                }
                return .start(name: name, attributes: attributes, line: tagLine)
            }
            guard hadSpace else { throw fail("expected whitespace, '>' or '/>' in <\(name)>") }
            let attribute = try self.name(what: "attribute name")
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw fail("attribute '\(attribute)' of <\(name)> needs '=' and a quoted value")
            }
            position += 1
            skipWhitespace()
            let value = try quotedValue(of: attribute)
            guard attributes.updateValue(value, forKey: attribute) == nil else {
                throw fail("attribute '\(attribute)' appears twice in <\(name)>")
            }
        }
    }

    private mutating func endTag() throws(XMLSyntaxError) -> XMLEvent {
        let tagLine = line
        position += 2
        let name = try self.name(what: "element name")
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
            throw fail("expected '>' after </\(name)")
        }
        position += 1
        guard let expected = open.popLast() else { throw fail("</\(name)> closes no open element") }
        guard expected == name else { throw fail("</\(name)> found where </\(expected)> closes <\(expected)>") }
        return .end(name: name, line: tagLine)
    }

    private mutating func doctype() throws(XMLSyntaxError) {
        guard !sawRoot else { throw fail("a DOCTYPE must come before the root element") }
        while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
            if bytes[position] == UInt8(ascii: "[") {
                throw fail(
                    "a DOCTYPE with declarations ('[…]') is refused: declared entities could expand without bound or read other files"
                )
            }
            if bytes[position] == UInt8(ascii: "\n") { line += 1 }
            position += 1
        }
        guard position < bytes.count else { throw fail("the DOCTYPE is not closed with '>'") }
        position += 1
    }

    private mutating func cdata() throws(XMLSyntaxError) -> XMLEvent? {
        guard !open.isEmpty else { throw fail("character data outside the root element") }
        let startLine = line
        position += 9
        let start = position
        try skip(past: "]]>", what: "CDATA section")
        let text = String(decoding: bytes[start..<(position - 3)], as: UTF8.self)
        return text.isEmpty ? nil : .text(text, line: startLine)
    }

    private mutating func skipComment() throws(XMLSyntaxError) {
        position += 4
        let start = position
        try skip(past: "-->", what: "comment")
        let body = bytes[start..<(position - 3)]
        if zip(body, body.dropFirst()).contains(where: { $0 == UInt8(ascii: "-") && $1 == UInt8(ascii: "-") }) {
            throw fail("'--' inside a comment is not allowed in XML")
        }
    }

    // MARK: Text

    private mutating func characterData() throws(XMLSyntaxError) -> XMLEvent? {
        let startLine = line
        var text: [UInt8] = []
        var onlySpace = true
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
            let byte = bytes[position]
            if byte == UInt8(ascii: "&") {
                text += try reference()
                onlySpace = false
                continue
            }
            if byte == UInt8(ascii: "\n") { line += 1 }
            if !Self.isSpace(byte) { onlySpace = false }
            text.append(byte)
            position += 1
        }
        if onlySpace { return nil }
        guard !open.isEmpty else { throw XMLSyntaxError(line: startLine, message: "text outside the root element") }
        return .text(String(decoding: text, as: UTF8.self), line: startLine)
    }

    private mutating func quotedValue(of attribute: String) throws(XMLSyntaxError) -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
        else {
            throw fail("the value of '\(attribute)' must be in quotes")
        }
        let quote = bytes[position]
        position += 1
        var value: [UInt8] = []
        while position < bytes.count, bytes[position] != quote {
            switch bytes[position] {
            case UInt8(ascii: "<"): throw fail("'<' inside the value of '\(attribute)'; write &lt;")
            case UInt8(ascii: "&"): value += try reference()
            case let byte:
                if byte == UInt8(ascii: "\n") { line += 1 }
                // Attribute-value normalisation: whitespace characters become spaces.
                value.append(byte == 9 || byte == 10 || byte == 13 ? 32 : byte)
                position += 1
            }
        }
        guard position < bytes.count else { throw fail("the value of '\(attribute)' is not closed") }
        position += 1
        return String(decoding: value, as: UTF8.self)
    }

    /// `&amp;` and the other predefined entities, `&#10;`, `&#x41;`: the UTF-8 bytes they stand for.
    private mutating func reference() throws(XMLSyntaxError) -> [UInt8] {
        guard let semicolon = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw fail("'&' must start an entity such as &amp; (a bare '&' is written &amp;)")
        }
        let name = String(decoding: bytes[(position + 1)..<semicolon], as: UTF8.self)
        position = semicolon + 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default: break
        }
        guard name.hasPrefix("#") else {
            throw fail(
                "unknown entity '&\(name);': only &lt; &gt; &amp; &quot; &apos; and character references are read (no DTD is loaded)"
            )
        }
        let hex = name.hasPrefix("#x")
        guard let code = UInt32(name.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10), let scalar = Unicode.Scalar(code),
            code == 0x9 || code == 0xA || code == 0xD || code >= 0x20
        else {
            throw fail("'&\(name);' is not a character XML allows")
        }
        return Array(String(Character(scalar)).utf8)
    }

    // MARK: Scanning

    private mutating func name(what: String) throws(XMLSyntaxError) -> String {
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position], first: position == start) { position += 1 }
        guard position > start else { throw fail("expected an \(what)") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = position
        while position < bytes.count, Self.isSpace(bytes[position]) {
            if bytes[position] == UInt8(ascii: "\n") { line += 1 }
            position += 1
        }
        return position > start
    }

    private mutating func skip(past terminator: String, what: String) throws(XMLSyntaxError) {
        let end = Array(terminator.utf8)
        let startLine = line
        while position + end.count <= bytes.count {
            if bytes[position..<(position + end.count)].elementsEqual(end) {
                position += end.count
                return
            }
            if bytes[position] == UInt8(ascii: "\n") { line += 1 }
            position += 1
        }
        throw XMLSyntaxError(line: startLine, message: "the \(what) is not closed with '\(terminator)'")
    }

    private func starts(with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { bytes[position..<(position + count)].elementsEqual($0) }
    }

    private func fail(_ message: String) -> XMLSyntaxError { XMLSyntaxError(line: line, message: message) }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 }

    /// Letters, digits, `_ : - .` and every non-ASCII byte (names in other scripts).
    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        if byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") { return true }
        if (65...90).contains(byte) || (97...122).contains(byte) { return true }
        return !first && ((48...57).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "."))
    }
}
