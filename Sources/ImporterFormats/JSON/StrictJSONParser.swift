import Foundation
import ImporterCore

/// RFC 8259, exactly: the parser every JSON record goes through when the flat-object scanner
/// declines it (docs/pipeline.md#sources). No comments, single quotes, trailing commas, `NaN`/`Infinity`, leading
/// zeros, `1.`/`.5`/`+1`, unescaped control characters, invalid escapes, lone surrogates, invalid
/// UTF-8 or text after the value; a key twice in one object is refused too (which value would be
/// meant is ambiguous), and so is `\u0000` in a key.
///
/// Numbers keep their exact text; a nested object or array becomes a `composite` field holding
/// its exact text. Nesting deeper than `maximumDepth` is refused (no recursion: the depth is a
/// counter and a stack of key sets), so no input can exhaust the stack.
struct StrictJSONParser {
    static let maximumDepth = 512

    /// What is wrong, and the 0-based offset in the text where it was found.
    struct SyntaxError: Error, Equatable {
        enum Kind { case syntax, encoding }
        let kind: Kind
        let message: String
        let offset: Int
    }

    /// Decoded string bytes.
    private var scratch: [UInt8] = []

    /// The names and values of the object that is the whole of `text`.
    mutating func objectFields(_ text: UnsafeBufferPointer<UInt8>) -> Result<
        (names: [String], values: [FieldValue]), SyntaxError
    > {
        guard let base = text.baseAddress, !text.isEmpty else {
            return .failure(error("the record is empty, not a JSON object", at: 0))
        }
        var cursor = JSONCursor(base: base, count: text.count)
        do {
            cursor.skipSpace()
            guard cursor.peek == UInt8(ascii: "{") else {
                _ = try value(&cursor)  // a syntax error in it is the better message
                throw error("the record is \(kindName(text[0])), not a JSON object", at: 0)
            }
            cursor.i += 1
            cursor.skipSpace()
            var names: [String] = [], values: [FieldValue] = []
            while !cursor.take(UInt8(ascii: "}")) {
                let keyOffset = cursor.i
                let name = try key(&cursor)
                if names.contains(name) {
                    throw error("the key \"\(name)\" appears twice in the object", at: keyOffset)
                }
                names.append(name)
                values.append(
                    cursor.peek == UInt8(ascii: "{") || cursor.peek == UInt8(ascii: "[")
                        ? try composite(&cursor) : try value(&cursor))
                try afterElement(&cursor, UInt8(ascii: "}"))
            }
            try end(&cursor)
            return .success((names, values))
        } catch let problem as SyntaxError {
            return .failure(problem)
        } catch {
            return .failure(self.error("\(error)", at: 0))
        }
    }

    /// Nil if `text` is one valid JSON value (with nothing after it), else what is wrong.
    mutating func validate(_ text: UnsafeBufferPointer<UInt8>) -> SyntaxError? {
        guard let base = text.baseAddress, !text.isEmpty else { return error("the record is empty", at: 0) }
        var cursor = JSONCursor(base: base, count: text.count)
        do {
            cursor.skipSpace()
            _ = try value(&cursor)
            try end(&cursor)
            return nil
        } catch let problem as SyntaxError {
            return problem
        } catch {
            return self.error("\(error)", at: 0)
        }
    }

    // MARK: Structure

    /// After the value: only whitespace.
    func end(_ cursor: inout JSONCursor) throws {
        cursor.skipSpace()
        guard cursor.atEnd else {
            throw error("unexpected text after the JSON value; one record per line", at: cursor.i)
        }
    }

    /// A key in double quotes and its colon; the cursor moves to the value.
    mutating func key(_ cursor: inout JSONCursor) throws -> String {
        guard cursor.peek == UInt8(ascii: "\"") else { throw error("expected a key in double quotes", at: cursor.i) }
        let key = try string(&cursor, isKey: true)
        cursor.skipSpace()
        guard cursor.take(UInt8(ascii: ":")) else { throw error("expected ':' after the key", at: cursor.i) }
        cursor.skipSpace()
        return key
    }

    /// The object or array at the cursor as its exact text; the cursor moves past it.
    private mutating func composite(_ cursor: inout JSONCursor) throws -> FieldValue {
        let start = cursor.i
        try nested(&cursor)
        return .composite(
            String(decoding: UnsafeBufferPointer(start: cursor.base + start, count: cursor.i - start), as: UTF8.self))
    }

    /// The scalar value at the cursor, which moves past it.
    mutating func value(_ cursor: inout JSONCursor) throws -> FieldValue {
        let start = cursor.i
        switch cursor.peek {
        case UInt8(ascii: "\""): return .text(try string(&cursor, isKey: false))
        case UInt8(ascii: "{"), UInt8(ascii: "["): return try composite(&cursor)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number(&cursor)
            return .number(
                String(
                    decoding: UnsafeBufferPointer(start: cursor.base + start, count: cursor.i - start), as: UTF8.self))
        default:
            if cursor.take("true") { return .bool(true) }
            if cursor.take("false") { return .bool(false) }
            if cursor.take("null") { return .null }
            throw error(
                cursor.atEnd
                    ? "the text ends where a value should be" : "expected a value, found \(shown(cursor.peek))",
                at: cursor.i)
        }
    }

    /// Moves past the object or array at the cursor, however deep, checking everything in it.
    private mutating func nested(_ cursor: inout JSONCursor) throws {
        // Per open container: the keys seen, for an object; nil for an array.
        var open: [SeenKeys?] = []
        func enter(_ byte: UInt8) throws {
            guard open.count < Self.maximumDepth else {
                throw error("nesting deeper than \(Self.maximumDepth) levels", at: cursor.i)
            }
            open.append(byte == UInt8(ascii: "{") ? SeenKeys() : nil)
            cursor.i += 1
            cursor.skipSpace()
        }
        try enter(cursor.peek)
        while let top = open.last {
            let closing = top == nil ? UInt8(ascii: "]") : UInt8(ascii: "}")
            if cursor.take(closing) {
                open.removeLast()
            } else {
                if top != nil {
                    let keyOffset = cursor.i
                    let key = try key(&cursor)
                    guard open[open.count - 1]!.insert(key) else {
                        throw error("the key \"\(key)\" appears twice in the object", at: keyOffset)
                    }
                }
                if cursor.peek == UInt8(ascii: "{") || cursor.peek == UInt8(ascii: "[") {
                    try enter(cursor.peek)
                    continue
                }
                _ = try value(&cursor)
            }
            try afterElement(&cursor, open.last.map { $0 == nil ? UInt8(ascii: "]") : UInt8(ascii: "}") })
        }
    }

    /// After a value inside a container closed by `closing` (nil: the outermost one just closed):
    /// `,` and the next element, or the closing bracket.
    func afterElement(_ cursor: inout JSONCursor, _ closing: UInt8?) throws {
        guard let closing else { return }
        cursor.skipSpace()
        if cursor.peek == closing { return }
        guard cursor.take(UInt8(ascii: ",")) else {
            throw error("expected ',' or '\(Character(Unicode.Scalar(closing)))' after a value", at: cursor.i)
        }
        cursor.skipSpace()
        if cursor.peek == closing {
            throw error("a trailing comma before '\(Character(Unicode.Scalar(closing)))'", at: cursor.i)
        }
    }

    // MARK: Scalars

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private func number(_ cursor: inout JSONCursor) throws {
        let start = cursor.i
        _ = cursor.take(UInt8(ascii: "-"))
        guard cursor.isDigit else { throw error("a number needs a digit after '-'", at: cursor.i) }
        if cursor.take(UInt8(ascii: "0")) {
            if cursor.isDigit { throw error("a number cannot have a leading zero", at: start) }
        } else {
            while cursor.isDigit { cursor.i += 1 }
        }
        if cursor.take(UInt8(ascii: ".")) {
            guard cursor.isDigit else { throw error("a number needs digits after '.'", at: cursor.i) }
            while cursor.isDigit { cursor.i += 1 }
        }
        if cursor.take(UInt8(ascii: "e")) || cursor.take(UInt8(ascii: "E")) {
            if !cursor.take(UInt8(ascii: "+")) { _ = cursor.take(UInt8(ascii: "-")) }
            guard cursor.isDigit else { throw error("a number needs digits in its exponent", at: cursor.i) }
            while cursor.isDigit { cursor.i += 1 }
        }
    }

    /// The decoded string whose opening quote is at the cursor; the cursor moves past its end.
    private mutating func string(_ cursor: inout JSONCursor, isKey: Bool) throws -> String {
        scratch.removeAll(keepingCapacity: true)
        cursor.i += 1
        var runStart = cursor.i
        while true {
            guard !cursor.atEnd else { throw error("a string is not closed with '\"'", at: cursor.i) }
            let byte = cursor.peek
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                try appendRun(cursor, from: runStart)
                cursor.i += 1
                if byte == UInt8(ascii: "\"") { break }
                try escape(&cursor, isKey: isKey)
                runStart = cursor.i
            } else if byte < 0x20 {
                throw error("a control character (\(shown(byte))) inside a string must be escaped", at: cursor.i)
            } else {
                cursor.i += 1
            }
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Appends the unescaped bytes from `start` to the cursor, refusing invalid UTF-8.
    private mutating func appendRun(_ cursor: JSONCursor, from start: Int) throws {
        let run = UnsafeBufferPointer(start: cursor.base + start, count: cursor.i - start)
        guard UTF8Text.isASCII(run) || String(validating: run, as: UTF8.self) != nil else {
            throw SyntaxError(kind: .encoding, message: "a string is not valid UTF-8", offset: start)
        }
        scratch.append(contentsOf: run)
    }

    /// The escape after a backslash (behind the cursor), decoded into `scratch`.
    private mutating func escape(_ cursor: inout JSONCursor, isKey: Bool) throws {
        guard !cursor.atEnd else { throw error("a string is not closed with '\"'", at: cursor.i) }
        let letter = cursor.peek
        cursor.i += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(letter)
        case UInt8(ascii: "b"): scratch.append(8)
        case UInt8(ascii: "f"): scratch.append(12)
        case UInt8(ascii: "n"): scratch.append(10)
        case UInt8(ascii: "r"): scratch.append(13)
        case UInt8(ascii: "t"): scratch.append(9)
        case UInt8(ascii: "u"):
            var scalar = try hex4(&cursor)
            if (0xDC00...0xDFFF).contains(scalar) { throw error("a lone low surrogate \\u escape", at: cursor.i - 6) }
            if (0xD800...0xDBFF).contains(scalar) {
                guard cursor.take("\\u"), case let low = try hex4(&cursor), (0xDC00...0xDFFF).contains(low) else {
                    throw error("a high surrogate \\u escape not followed by a low one", at: cursor.i)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            if scalar == 0, isKey { throw error("a key cannot hold \\u0000", at: cursor.i - 6) }
            scratch.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            throw error("\\\(Character(Unicode.Scalar(letter))) is not a JSON escape", at: cursor.i - 2)
        }
    }

    private func hex4(_ cursor: inout JSONCursor) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard !cursor.atEnd, let digit = hexValue(cursor.peek) else {
                throw error("\\u needs four hex digits", at: cursor.i)
            }
            value = value << 4 | digit
            cursor.i += 1
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - 48)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - 87)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - 55)
        default: nil
        }
    }

    // MARK: Messages

    func error(_ message: String, at offset: Int) -> SyntaxError {
        SyntaxError(kind: .syntax, message: message, offset: offset)
    }

    func kindName(_ first: UInt8) -> String {
        switch first {
        case UInt8(ascii: "["): "an array"
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        default: "a number"
        }
    }

    private func shown(_ byte: UInt8) -> String {
        byte >= 32 && byte < 127
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}

/// A position in a JSON text.
struct JSONCursor {
    let base: UnsafePointer<UInt8>
    let count: Int
    var i = 0

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    var atEnd: Bool { i >= count }
    /// The byte at the cursor; 0 at the end (never a valid byte where one is looked for).
    var peek: UInt8 { i < count ? base[i] : 0 }
    var isDigit: Bool { i < count && base[i] >= 48 && base[i] <= 57 }

    @inline(__always) mutating func skipSpace() {
        while i < count, isJSONSpace(base[i]) { i += 1 }
    }

    /// Moves past `byte` if it is next.
    @inline(__always) mutating func take(_ byte: UInt8) -> Bool {
        guard i < count, base[i] == byte else { return false }
        i += 1
        return true
    }

    @inline(__always) mutating func take(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard i + length <= count, memcmp(base + i, word.utf8Start, length) == 0 else { return false }
        i += length
        return true
    }
}

/// RFC 8259 checks for JSON that is read whole, such as an archive's manifest.
package enum StrictJSON {
    /// Nil if `bytes` are one valid JSON value, else what is wrong and where.
    package static func problem(in bytes: [UInt8]) -> String? {
        var parser = StrictJSONParser()
        guard let problem = bytes.withUnsafeBufferPointer({ parser.validate($0) }) else { return nil }
        return "invalid JSON at byte \(problem.offset + 1): \(problem.message)"
    }
}

/// The keys of one object, to find a key that appears twice: a list searched in turn while it
/// is short (most objects), a set once it is long; hashing every key of every small object
/// cost more than comparing it with the few before it.
private struct SeenKeys {
    private static let listed = 16
    private var list: [String] = []
    private var set: Set<String>?

    /// Adds `key`; false when the object already has it.
    mutating func insert(_ key: String) -> Bool {
        if set != nil { return set!.insert(key).inserted }
        if list.contains(key) { return false }
        list.append(key)
        if list.count > Self.listed {
            set = Set(list)
            list = []
        }
        return true
    }
}
