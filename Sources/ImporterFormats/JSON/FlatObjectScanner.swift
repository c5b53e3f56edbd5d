import Foundation
import ImporterCore

/// The common record of a JSON dump, scanned on a fast path: one flat object whose values are
/// strings, numbers, booleans or null, in the plainest spelling.
///
/// It takes only valid JSON, and returns exactly the names and values that `StrictJSONParser`
/// gives for it; anything else (nested values, `\u` escapes, control characters, exponents,
/// long or non-canonical numbers, duplicate keys, invalid UTF-8, any syntax error) it declines
/// (nil), and the strict parser parses the text, with its messages. One scanner serves one thread.
///
/// A record whose keys are byte for byte those of the one before shares that record's `names`
/// array, which also lets the mapper see at once that the names did not change.
struct FlatObjectScanner {
    /// Start and end (exclusive) of each key's bytes in the text being scanned.
    private var keys: [Range<Int>] = []
    /// The last names made, and their bytes one after another.
    private var lastNames: [String] = []
    private var lastKeyBytes: [UInt8] = []
    /// Unescaped string bytes.
    private var scratch: [UInt8] = []

    /// The names and values of `text`, or nil for the strict parser.
    mutating func fields(_ text: UnsafeBufferPointer<UInt8>) -> (names: [String], values: [FieldValue])? {
        var keys: [Range<Int>] = []
        swap(&keys, &self.keys)
        defer { swap(&keys, &self.keys) }
        keys.removeAll(keepingCapacity: true)
        var values: [FieldValue] = []
        values.reserveCapacity(lastNames.count)
        guard let base = text.baseAddress else { return nil }
        var cursor = JSONCursor(base: base, count: text.count)
        cursor.skipSpace()
        guard cursor.take(123) else { return nil }  // {
        cursor.skipSpace()
        if !cursor.take(125) {  // }
            while true {
                guard let key = cursor.key() else { return nil }
                keys.append(key)
                guard let value = value(&cursor) else { return nil }
                values.append(value)
                // What follows the value must end it.
                cursor.skipSpace()
                if cursor.take(44) {  // ,
                    cursor.skipSpace()
                    continue
                }
                guard cursor.take(125) else { return nil }
                break
            }
        }
        cursor.skipSpace()
        guard cursor.atEnd, let names = names(text, keys) else { return nil }
        return (names, values)
    }

    /// The value at the cursor, which moves past it; nil for the strict parser.
    @inline(__always)
    private mutating func value(_ cursor: inout JSONCursor) -> FieldValue? {
        guard !cursor.atEnd else { return nil }
        let base = cursor.base, i = cursor.i, count = cursor.count
        let byte = base[i]
        if byte == 34 {
            var escaped = false
            guard let end = cursor.stringEnd(escaped: &escaped) else { return nil }
            let content = UnsafeBufferPointer(start: base + i + 1, count: end - i - 2)
            guard let string = escaped ? unescaped(content) : UTF8Text.string(content) else { return nil }
            cursor.i = end
            return .text(string)
        }
        if byte == 45 || (byte >= 48 && byte <= 57) {
            guard let end = JSONNumber.end(base, from: i, count: count) else { return nil }
            cursor.i = end
            return .number(ASCIIText.string(UnsafeBufferPointer(start: base + i, count: end - i)))
        }
        if cursor.take("true") { return .bool(true) }
        if cursor.take("false") { return .bool(false) }
        if cursor.take("null") { return .null }
        return nil
    }

    /// The names of `keys`: the last ones if the bytes match, else new ones (nil if a key is
    /// not UTF-8, or repeats: the strict parser rejects that).
    private mutating func names(_ text: UnsafeBufferPointer<UInt8>, _ keys: [Range<Int>]) -> [String]? {
        let base = text.baseAddress!
        if keys.count == lastNames.count {
            var same = true
            var offset = 0
            lastKeyBytes.withUnsafeBufferPointer { last in
                for (index, key) in keys.enumerated() {
                    let length = key.count
                    guard offset + length <= last.count, lastNames[index].utf8.count == length,
                        length == 0 || memcmp(last.baseAddress! + offset, base + key.lowerBound, length) == 0
                    else {
                        same = false
                        return
                    }
                    offset += length
                }
            }
            if same { return lastNames }
        }
        guard keys.count <= 64 else { return nil }
        var names: [String] = []
        names.reserveCapacity(keys.count)
        var bytes: [UInt8] = []
        for (index, key) in keys.enumerated() {
            for earlier in keys[..<index]
            where earlier.count == key.count
                && (key.isEmpty || memcmp(base + earlier.lowerBound, base + key.lowerBound, key.count) == 0)
            {
                return nil
            }
            let slice = UnsafeBufferPointer(rebasing: text[key])
            // NUL cannot occur here (no `\u` escapes; a raw control character is declined).
            guard let name = UTF8Text.string(slice) else { return nil }
            names.append(name)
            bytes.append(contentsOf: slice)
        }
        lastNames = names
        lastKeyBytes = bytes
        return names
    }

    /// The string of `content` with its escapes (`\" \\ \/ \b \f \n \r \t` only) replaced.
    private mutating func unescaped(_ content: UnsafeBufferPointer<UInt8>) -> String? {
        scratch.removeAll(keepingCapacity: true)
        var index = 0
        while index < content.count {
            let byte = content[index]
            if byte == 92 {
                switch content[index + 1] {
                case 98: scratch.append(8)
                case 102: scratch.append(12)
                case 110: scratch.append(10)
                case 114: scratch.append(13)
                case 116: scratch.append(9)
                case let other: scratch.append(other)  // " \ /
                }
                index += 2
            } else {
                scratch.append(byte)
                index += 1
            }
        }
        return scratch.withUnsafeBufferPointer(UTF8Text.string)
    }
}

/// The scanner's steps over a JSON text.
private extension JSONCursor {
    /// A key without escapes and its colon: the key's bytes; nil for the strict parser.
    @inline(__always) mutating func key() -> Range<Int>? {
        guard i < count, base[i] == 34 else { return nil }
        var escaped = false
        guard let end = stringEnd(escaped: &escaped), !escaped else { return nil }
        let key = i + 1..<end - 1
        i = end
        skipSpace()
        guard take(58) else { return nil }  // :
        skipSpace()
        return key
    }

    /// Past the closing quote of the string whose opening quote is at `i`; nil if it has a
    /// `\u` escape, a control character or no end. `escaped` tells whether it has escapes.
    @inline(__always) func stringEnd(escaped: inout Bool) -> Int? {
        var j = i + 1
        while true {
            j = stringStop(from: j)
            guard j < count else { return nil }
            let byte = base[j]
            if byte == 34 { return j + 1 }
            // A control character, or a backslash.
            guard byte == 92, j + 1 < count else { return nil }
            switch base[j + 1] {
            case 34, 92, 47, 98, 102, 110, 114, 116: escaped = true
            default: return nil  // \u, or not an escape
            }
            j += 2
        }
    }
}
