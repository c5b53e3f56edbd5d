import Foundation
import ImporterCore

/// The values of a document's fields, read from its bytes (docs/documents.md#paths-and-values):
/// scalars, MongoDB wrappers, the text of other objects and arrays, and the checks the strict
/// parser makes of them.
extension DocumentScanner {
    // MARK: Values

    /// What a nested value stands for.
    enum Found {
        case value(FieldValue)
        /// Not there (a path), or not a MongoDB wrapper.
        case ordinary
        /// For the tree path.
        case decline
    }

    /// A field's value at the cursor, which moves past it: a scalar's, a MongoDB wrapper's,
    /// else the object's or array's text (docs/documents.md#paths-and-values). Inlined: it is
    /// called for every field.
    @inline(__always)
    mutating func value(_ cursor: inout JSONCursor) -> FieldValue? {
        let start = cursor.i
        switch cursor.peek {
        case 123, 91:  // { [
            // A wrapper is read once, checked as it is read; anything else is skipped, then kept
            // as its text.
            if let value = plainWrapper(cursor: &cursor) { return value }
            if Self.mayBeWrapper(cursor, at: start) {
                var inner = cursor
                switch wrapped(&inner) {
                case .value(let value):
                    guard Self.isText(cursor, from: start, to: inner.i) else { return nil }
                    cursor = inner
                    return value
                case .ordinary: break
                case .decline: return nil
                }
            }
            guard skip(&cursor), let text = Self.text(cursor, from: start, to: cursor.i) else { return nil }
            return .composite(text)
        default:
            return scalar(&cursor)
        }
    }

    /// The value of the commonest wrappers, read in one pass: one member holding a string
    /// (`{"$oid": "…"}`, `{"$date": "…"}`, `{"$numberDecimal": "…"}`…), or a `$date` holding
    /// `{"$numberLong": "…"}`; the value `wrapped` gives them, its text UTF-8 (its key is one of
    /// those and its string is checked). Nil, with the cursor left, for anything else.
    mutating func plainWrapper(cursor: inout JSONCursor) -> FieldValue? {
        if let value = compactWrapper(&cursor) { return value }
        var probe = cursor
        guard let (key, text) = plainMember(&probe) else { return nil }
        let value: FieldValue
        if let text {
            switch Self.wrapperKey(key, probe) {
            case .text: value = .text(text)
            case .number: value = .number(text)
            case .double: value = Double(text)?.isFinite == true ? .number(text) : .text(text)
            case .date: value = .text(text)
            case nil: return nil
            }
        } else {
            // {"$date": {"$numberLong": "…"}}: the member is an object, at the probe.
            guard Self.wrapperKey(key, probe) == .date, let (inner, millis) = plainMember(&probe), let millis,
                inner.count == 11, Self.wrapperKey(inner, probe) == .number,  // $numberLong
                let count = Int64(millis)
            else { return nil }
            value = .text(ExtendedJSON.isoText(millisecondsSinceEpoch: count))
            probe.skipSpace()
            guard probe.take(125) else { return nil }  // }
        }
        cursor = probe
        return value
    }

    /// The commonest wrappers spelled as `mongoexport` writes them, without spaces, told apart by
    /// their first bytes: `{"$oid":"…"}`, `{"$date":"…"}`, `{"$date":{"$numberLong":"…"}}` and
    /// `{"$numberDecimal":"…"}`; the value `plainWrapper` gives them. Nil, with the cursor left,
    /// for anything else.
    @inline(__always)
    private mutating func compactWrapper(_ cursor: inout JSONCursor) -> FieldValue? {
        let start = cursor.i
        guard start + 25 <= cursor.count else { return nil }
        let bytes = UnsafeRawPointer(cursor.base + start)
        func word(at offset: Int) -> UInt64 { (bytes + offset).loadUnaligned(as: UInt64.self) }
        var probe = cursor
        let value: FieldValue
        switch word(at: 0) {
        case 0x3a22_6469_6f24_227b:  // {"$oid":
            probe.i = start + 8
            guard probe.peek == 34, let text = string(&probe) else { return nil }
            value = .text(text)
        case 0x2265_7461_6424_227b where cursor.base[start + 8] == 58:  // {"$date" :
            probe.i = start + 9
            if probe.peek == 34 {
                guard let text = string(&probe) else { return nil }
                value = .text(text)
            } else {
                // {"$numberLong":"…"}
                guard word(at: 9) == 0x6562_6d75_6e24_227b, word(at: 17) == 0x223a_2267_6e6f_4c72 else { return nil }
                probe.i = start + 25
                // The digits, their closing quote and the inner object's end.
                guard let millis = Self.plainInteger(&probe), probe.take(34), probe.take(125) else { return nil }
                value = .text(ExtendedJSON.isoText(millisecondsSinceEpoch: millis))
            }
        case 0x6562_6d75_6e24_227b where word(at: 8) == 0x6c61_6d69_6365_4472:  // {"$numbe rDecimal
            guard cursor.base[start + 16] == 34, cursor.base[start + 17] == 58 else { return nil }  // ":
            probe.i = start + 18
            guard probe.peek == 34, let text = string(&probe) else { return nil }
            value = .number(text)
        default:
            return nil
        }
        guard probe.take(125) else { return nil }  // }
        cursor = probe
        return value
    }

    /// The integer at the cursor spelled as digits, with a `-` or not (as a `$numberLong`'s
    /// string most often is), which fits in 64 bits; the cursor moves past it. Nil for anything
    /// else, with the cursor anywhere.
    @inline(__always)
    static func plainInteger(_ cursor: inout JSONCursor) -> Int64? {
        let negative = cursor.take(45)  // -
        let start = cursor.i
        var magnitude: UInt64 = 0
        while cursor.i < cursor.count, case let digit = cursor.base[cursor.i] &- 48, digit < 10 {
            let (times, overflowed) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carried) = times.addingReportingOverflow(UInt64(digit))
            guard !overflowed, !carried else { return nil }
            magnitude = sum
            cursor.i += 1
        }
        guard cursor.i > start else { return nil }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// An object's first member at the cursor, when its key starts with `$`: the key and its
    /// string, the cursor past the object's `}`; or, for a member holding an object, the key
    /// and nil, the cursor at that object. Nil for anything else.
    private mutating func plainMember(_ cursor: inout JSONCursor) -> (key: Range<Int>, text: String?)? {
        guard cursor.take(123) else { return nil }  // {
        cursor.skipSpace()
        guard cursor.peek == 34, cursor.i + 1 < cursor.count, cursor.base[cursor.i + 1] == 36,  // "$
            let key = cursor.plainKey()
        else { return nil }
        if cursor.peek == 123 { return (key, nil) }
        guard cursor.peek == 34, let text = string(&cursor) else { return nil }
        cursor.skipSpace()
        guard cursor.take(125) else { return nil }  // }
        return (key, text)
    }

    private enum WrapperKind { case text, number, double, date }

    /// What a wrapper key holding a string stands for (as `wrapped` reads it).
    private static func wrapperKey(_ key: Range<Int>, _ cursor: JSONCursor) -> WrapperKind? {
        func equals(_ name: StaticString) -> Bool {
            key.count == name.utf8CodeUnitCount && memcmp(cursor.base + key.lowerBound, name.utf8Start, key.count) == 0
        }
        switch key.count {
        case 4: return equals("$oid") ? .text : nil
        case 5: return equals("$uuid") ? .text : equals("$date") ? .date : nil
        case 7: return equals("$symbol") ? .text : nil
        case 10: return equals("$numberInt") ? .number : nil
        case 11: return equals("$numberLong") ? .number : nil
        case 13: return equals("$numberDouble") ? .double : nil
        case 14: return equals("$numberDecimal") ? .number : nil
        default: return nil
        }
    }

    /// The bytes from `start` to `end` as a string, if they are UTF-8 (checked once, as they
    /// are copied). Not inlined: `value`, called for every field, stays small.
    @inline(never)
    static func text(_ cursor: JSONCursor, from start: Int, to end: Int) -> String? {
        UTF8Text.string(UnsafeBufferPointer(start: cursor.base + start, count: end - start))
    }

    /// Whether the bytes from `start` to `end` are UTF-8.
    static func isText(_ cursor: JSONCursor, from start: Int, to end: Int) -> Bool {
        let text = UnsafeBufferPointer(start: cursor.base + start, count: end - start)
        return UTF8Text.isASCII(text) || String(validating: text, as: UTF8.self) != nil
    }

    /// Whether the value at `start` is an object whose first key starts with `$`.
    static func mayBeWrapper(_ cursor: JSONCursor, at start: Int) -> Bool {
        var probe = cursor
        probe.i = start
        guard probe.take(123) else { return false }
        probe.skipSpace()
        return probe.take(34) && probe.peek == 36  // "$
    }

    /// The string, number, boolean or null at the cursor, which moves past it.
    mutating func scalar(_ cursor: inout JSONCursor) -> FieldValue? {
        let base = cursor.base, start = cursor.i
        switch cursor.peek {
        case 34:  // "
            return string(&cursor).map(FieldValue.text)
        case 45, 48...57:  // - 0-9
            guard let end = JSONNumber.end(base, from: start, count: cursor.count) else { return nil }
            cursor.i = end
            return .number(ASCIIText.string(UnsafeBufferPointer(start: base + start, count: end - start)))
        default:
            if cursor.take("true") { return .bool(true) }
            if cursor.take("false") { return .bool(false) }
            if cursor.take("null") { return .null }
            return nil
        }
    }

    /// Moves the cursor to the value at `path` in the object at the cursor: true if it is
    /// there, false if not, nil to decline.
    mutating func locate(_ path: ArraySlice<[UInt8]>, _ cursor: inout JSONCursor) -> Bool? {
        for wanted in path {
            guard cursor.take(123) else { return false }  // only objects have keys
            cursor.skipSpace()
            guard !cursor.take(125) else { return false }
            while true {
                guard let key = cursor.plainKey() else { return nil }
                if Self.equal(key, wanted, cursor) { break }
                guard skip(&cursor) else { return nil }
                cursor.skipSpace()
                guard cursor.take(44) else { return false }  // ,
                cursor.skipSpace()
            }
        }
        return true
    }

    /// The MongoDB Extended JSON value of the object at the cursor, as `ExtendedJSON.value`
    /// reads it from a tree (docs/documents.md#mongodb-values); for a value, the cursor moves
    /// past the object, checked as `skip` checks it. The caller checks its text's UTF-8.
    mutating func wrapped(_ cursor: inout JSONCursor) -> Found {
        // Its first two members (key, and where the value starts), and how many it has.
        var first = (key: 0..<0, value: 0), second = (key: 0..<0, value: 0), count = 0
        cursor.i += 1
        cursor.skipSpace()
        if !cursor.take(125) {
            while true {
                guard let key = cursor.plainKey() else { return .decline }
                guard count < 2 else { return .ordinary }
                if count == 0 { first = (key, cursor.i) } else { second = (key, cursor.i) }
                count += 1
                guard skip(&cursor) else { return .decline }
                cursor.skipSpace()
                guard cursor.take(44) else { break }
                cursor.skipSpace()
            }
            guard cursor.take(125) else { return .decline }
        }
        guard count > 0, first.key.count > 0, cursor.base[first.key.lowerBound] == 36 else {  // $
            return .ordinary
        }
        func at(_ offset: Int) -> JSONCursor {
            var moved = cursor
            moved.i = offset
            return moved
        }
        /// A member's string, nil when it is not one; decline for a string the tree path reads.
        func text(_ offset: Int) -> String?? {
            var moved = at(offset)
            guard moved.peek == 34 else { return .some(nil) }
            guard let text = string(&moved) else { return nil }
            return .some(text)
        }
        func key(_ name: StaticString, _ range: Range<Int>) -> Bool {
            range.count == name.utf8CodeUnitCount
                && memcmp(cursor.base + range.lowerBound, name.utf8Start, range.count) == 0
        }
        if count == 2 {
            // The legacy binary form: {"$binary": "base64", "$type": "00"}.
            guard key("$binary", first.key), key("$type", second.key) else { return .ordinary }
            guard let base64 = text(first.value) else { return .decline }
            return base64.map { .value(.text($0)) } ?? .ordinary
        }
        let member = first.value
        if key("$oid", first.key) || key("$uuid", first.key) || key("$symbol", first.key) {
            guard let text = text(member) else { return .decline }
            return text.map { .value(.text($0)) } ?? .ordinary
        }
        if key("$numberInt", first.key) || key("$numberLong", first.key) || key("$numberDecimal", first.key) {
            guard let number = text(member) else { return .decline }
            return number.map { .value(.number($0)) } ?? .ordinary
        }
        if key("$numberDouble", first.key) {
            guard let number = text(member) else { return .decline }
            guard let number else { return .ordinary }
            // Infinity, -Infinity and NaN are text, which a number attribute refuses.
            return .value(Double(number)?.isFinite == true ? .number(number) : .text(number))
        }
        if key("$date", first.key) {
            guard let iso = text(member) else { return .decline }
            if let iso { return .value(.text(iso)) }
            // Canonical: {"$date": {"$numberLong": "1700000000000"}}; a bare number in old exports.
            var inner = at(member)
            let millis: String
            switch inner.peek {
            case 45, 48...57:
                guard case .number(let number)? = scalar(&inner) else { return .decline }
                millis = number
            case 123:
                switch wrapped(&inner) {
                case .value(.number(let number)): millis = number
                case .decline: return .decline
                default: return .ordinary
                }
            default:
                return .ordinary
            }
            guard let count = Int64(millis) else { return .ordinary }
            return .value(.text(ExtendedJSON.isoText(millisecondsSinceEpoch: count)))
        }
        if key("$binary", first.key) {
            // Canonical v2: {"$binary": {"base64": "…", "subType": "00"}}.
            var inner = at(member)
            guard let found = locate([Array("base64".utf8)], &inner) else { return .decline }
            guard found, inner.peek == 34 else { return .ordinary }
            guard let base64 = string(&inner) else { return .decline }
            return .value(.text(base64))
        }
        return .ordinary
    }

    // MARK: Checking

    /// Moves past the value at the cursor, checked as the strict parser checks it but for its
    /// strings' UTF-8 (the caller checks the value's text whole); false to decline.
    mutating func skip(_ cursor: inout JSONCursor) -> Bool {
        switch cursor.peek {
        case 34:
            return cursor.skipString()
        case 45, 48...57:
            guard let end = JSONNumber.end(cursor.base, from: cursor.i, count: cursor.count) else { return false }
            cursor.i = end
            return true
        case 123, 91:
            return skipContainer(&cursor)
        default:
            return cursor.take("true") || cursor.take("false") || cursor.take("null")
        }
    }

    /// `skip` of an object or array: its open containers and their keys on stacks, not
    /// recursion.
    private mutating func skipContainer(_ cursor: inout JSONCursor) -> Bool {
        let keyBase = keys.count, openBase = open.count
        defer {
            keys.removeSubrange(keyBase...)
            open.removeSubrange(openBase...)
        }
        while true {
            // A value.
            switch cursor.peek {
            case 34:
                guard cursor.skipString() else { return false }
            case 45, 48...57:
                guard let end = JSONNumber.end(cursor.base, from: cursor.i, count: cursor.count) else { return false }
                cursor.i = end
            case 123, 91:
                // Deep nesting is the tree path's to refuse, with its message.
                guard open.count - openBase < 256 else { return false }
                let isObject = cursor.peek == 123
                cursor.i += 1
                cursor.skipSpace()
                if cursor.take(isObject ? 125 : 93) { break }
                open.append(isObject ? keys.count : -1)
                if isObject {
                    guard let key = cursor.plainKey() else { return false }
                    keys.append(key)
                }
                continue
            default:
                guard cursor.take("true") || cursor.take("false") || cursor.take("null") else { return false }
            }
            // After a value: the next one in its container, or the container's end.
            while true {
                guard let top = open.last, open.count > openBase else { return true }
                cursor.skipSpace()
                if cursor.take(44) {  // ,
                    cursor.skipSpace()
                    if top >= 0 {
                        guard keys.count - top < 64, let key = cursor.plainKey() else { return false }
                        for earlier in keys[top...] where Self.equal(earlier, key, cursor) { return false }
                        keys.append(key)
                    }
                    break
                }
                guard cursor.take(top >= 0 ? 125 : 93) else { return false }
                if top >= 0 { keys.removeSubrange(top...) }
                open.removeLast()
            }
        }
    }

    // MARK: Strings

    /// The string whose opening quote is at the cursor, its escapes decoded; the cursor moves
    /// past it. Nil for what the strict parser refuses (a control character, an invalid
    /// escape or UTF-8, a lone surrogate).
    mutating func string(_ cursor: inout JSONCursor) -> String? {
        let start = cursor.i + 1
        var j = start
        var escaped = false
        while true {
            j = cursor.stringStop(from: j)
            guard j < cursor.count else { return nil }
            let byte = cursor.base[j]
            if byte == 34 { break }
            if byte < 32 { return nil }
            escaped = true  // a backslash
            j += 2
        }
        cursor.i = j + 1
        let content = UnsafeBufferPointer(start: cursor.base + start, count: j - start)
        return escaped ? unescaped(content) : UTF8Text.string(content)
    }

    /// `content` with its escapes replaced, if they are all JSON's and it is UTF-8.
    mutating func unescaped(_ content: UnsafeBufferPointer<UInt8>) -> String? {
        scratch.removeAll(keepingCapacity: true)
        var index = 0
        func hex4() -> UInt32? {
            guard index + 4 <= content.count else { return nil }
            var value: UInt32 = 0
            for offset in 0..<4 {
                guard let digit = JSONNumber.hexValue(content[index + offset]) else { return nil }
                value = value << 4 | digit
            }
            index += 4
            return value
        }
        while index < content.count {
            let byte = content[index]
            guard byte == 92 else {
                scratch.append(byte)
                index += 1
                continue
            }
            guard index + 1 < content.count else { return nil }
            index += 2
            switch content[index - 1] {
            case 34, 92, 47: scratch.append(content[index - 1])
            case 98: scratch.append(8)
            case 102: scratch.append(12)
            case 110: scratch.append(10)
            case 114: scratch.append(13)
            case 116: scratch.append(9)
            case 117:
                guard var scalar = hex4(), !(0xDC00...0xDFFF).contains(scalar) else { return nil }
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 2 <= content.count, content[index] == 92, content[index + 1] == 117 else {
                        return nil
                    }
                    index += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                UTF8.encode(Unicode.Scalar(scalar)!) { scratch.append($0) }
            default:
                return nil
            }
        }
        return scratch.withUnsafeBufferPointer(UTF8Text.string)
    }
}
