import Foundation
import ImporterCore

/// A document's records made straight from its bytes, without a tree (docs/documents.md): the
/// fast path of `DocumentReader`, as `FlatObjectScanner` is for flat records.
///
/// It gives exactly the root record and elements that `StrictJSONParser.tree` and
/// `DocumentExpander` give for a valid document. Anything else it declines (nil) and the tree
/// path reads the document, with its messages: any syntax error, invalid UTF-8, a duplicate key,
/// a key with an escape, an element that is not an object, a child path holding something other
/// than an array or null, children out of the pipeline's order, objects of more than 64 keys.
/// One scanner serves one thread.
struct DocumentScanner {
    /// What the scanner looks for in the objects of one shape node (a class: a record takes
    /// it with one retain).
    private final class Plan {
        /// The node's children: each one's array key, node, and array pointer (`/towns`).
        var childKeys: [[UInt8]] = []
        var childNodes: [Int] = []
        var childPointers: [String] = []
        /// The node's dotted paths (sorted, as the shape has them), split into keys.
        var paths: [(name: String, nameBytes: [UInt8], keys: [[UInt8]])] = []
    }

    /// Per shape node; nil when the shape needs the tree path (a dotted array path, say).
    private let plans: [Plan]?
    /// Per node, the keys of its last record (bytes one after another, and their lengths),
    /// which of its paths it had, and its names: a record with the same ones shares them.
    private var lastKeyBytes: [[UInt8]]
    private var lastKeyLengths: [[Int]]
    private var lastPathMask: [UInt64]
    private var lastNames: [[String]]
    /// The keys of the objects being scanned, the innermost last.
    private var keys: [Range<Int>] = []
    /// The values found at the paths of the objects being scanned.
    private var pathValues: [FieldValue?] = []
    /// The open containers of a value being skipped: an object's first key in `keys`, or -1.
    private var open: [Int] = []
    /// Unescaped string bytes.
    private var scratch: [UInt8] = []

    init(shape: DocumentShape) {
        var plans: [Plan]? = []
        for node in shape.nodes {
            let plan = Plan()
            for child in node.children {
                let path = shape.nodes[child].arrayPath
                guard path.count == 1 else {
                    plans = nil
                    break
                }
                plan.childKeys.append(Array(path[0].utf8))
                plan.childNodes.append(child)
                plan.childPointers.append("/" + JSONPointer.escaped(path[0]))
            }
            for name in node.valuePaths {
                let keys = name.split(separator: ".").map { Array($0.utf8) }
                // A path through a child's array, an empty one, one named twice, or over 64
                // paths: the tree path.
                if keys.isEmpty || plan.childKeys.contains(keys[0]) || node.valuePaths.count > 64
                    || plan.paths.contains(where: { $0.name == name })
                {
                    plans = nil
                    break
                }
                plan.paths.append((name, Array(name.utf8), keys))
            }
            plans?.append(plan)
        }
        if shape.nodes.count > 64 { plans = nil }
        self.plans = plans
        let count = shape.nodes.count
        lastKeyBytes = Array(repeating: [], count: count)
        lastKeyLengths = Array(repeating: [], count: count)
        lastPathMask = Array(repeating: 0, count: count)
        lastNames = Array(repeating: [], count: count)
    }

    /// The document `root` holds (its raw text is the document), or nil for the tree path.
    mutating func document(_ root: SourceRecord) -> SourceDocument? {
        guard plans != nil, root.failure == nil else { return nil }
        return root.raw.withUnsafeBufferPointer { text -> SourceDocument? in
            guard let base = text.baseAddress else { return nil }
            var cursor = JSONCursor(base: base, count: text.count)
            var walk = Walk(document: root)
            cursor.skipSpace()
            guard cursor.peek == 123,  // {
                let fields = record(&cursor, node: 0, slot: nil, pointer: "", walk: &walk)
            else {
                keys.removeAll(keepingCapacity: true)
                pathValues.removeAll(keepingCapacity: true)
                return nil
            }
            cursor.skipSpace()
            guard cursor.atEnd else { return nil }
            var document = SourceDocument(root: root, elements: walk.elements)
            (document.root.names, document.root.values) = fields
            return document
        }
    }

    /// One document's records so far.
    private struct Walk {
        let document: SourceRecord
        var elements: [DocumentElement] = []
        /// Offsets of the document's line feeds, once an element's line is asked for.
        var lineFeeds: [Int]?

        init(document: SourceRecord) { self.document = document }

        /// The line of the document's byte `offset`.
        mutating func line(at offset: Int, in text: JSONCursor) -> Int {
            if lineFeeds == nil {
                var feeds: [Int] = []
                var from = 0
                while from < text.count, let found = memchr(text.base + from, 10, text.count - from) {
                    let index = UnsafeRawPointer(text.base).distance(to: UnsafeRawPointer(found))
                    feeds.append(index)
                    from = index + 1
                }
                lineFeeds = feeds
            }
            var low = 0, high = lineFeeds!.count
            while low < high {
                let middle = (low + high) / 2
                if lineFeeds![middle] < offset { low = middle + 1 } else { high = middle }
            }
            return document.line + low
        }
    }

    // MARK: Records

    /// The fields of the object at the cursor, a record of `node` (element `slot` of the walk,
    /// nil for the root), after adding its children's elements; the cursor moves past it.
    private mutating func record(
        _ cursor: inout JSONCursor, node: Int, slot: Int?, pointer: String, walk: inout Walk
    ) -> (names: [String], values: [FieldValue])? {
        let plan = plans![node]
        let keyBase = keys.count, pathBase = pathValues.count
        defer {
            keys.removeSubrange(keyBase...)
            pathValues.removeSubrange(pathBase...)
        }
        pathValues.append(contentsOf: repeatElement(nil, count: plan.paths.count))
        var values: [FieldValue] = []
        values.reserveCapacity(lastNames[node].count)
        var childMask: UInt64 = 0
        var nextChild = 0
        cursor.i += 1
        cursor.skipSpace()
        if !cursor.take(125) {  // }
            while true {
                guard keys.count - keyBase < 64, let key = cursor.plainKey() else { return nil }
                keys.append(key)
                if let child = Self.index(of: key, in: plan.childKeys, cursor) {
                    // Children in the pipeline's order keep the tree path's order of elements.
                    guard child >= nextChild else { return nil }
                    nextChild = child + 1
                    childMask |= 1 << UInt64(keys.count - 1 - keyBase)
                    if !cursor.take("null") {
                        guard cursor.peek == 91,  // [
                            elements(
                                &cursor, node: plan.childNodes[child], parent: slot,
                                pointer: pointer + plan.childPointers[child], walk: &walk)
                        else { return nil }
                    }
                } else {
                    let start = cursor.i
                    guard let value = value(&cursor) else { return nil }
                    values.append(value)
                    for (index, path) in plan.paths.enumerated() where Self.equal(key, path.keys[0], cursor) {
                        if path.keys.count == 1 {
                            pathValues[pathBase + index] = value
                            continue
                        }
                        var inner = cursor
                        inner.i = start
                        guard let found = locate(path.keys.dropFirst(), &inner) else { return nil }
                        if found {
                            guard let value = self.value(&inner) else { return nil }
                            pathValues[pathBase + index] = value
                        }
                    }
                }
                cursor.skipSpace()
                if cursor.take(44) {  // ,
                    cursor.skipSpace()
                    continue
                }
                guard cursor.take(125) else { return nil }
                break
            }
        }
        // The paths found, unless a key is spelled like one (`"geo.lat": …`).
        var pathMask: UInt64 = 0
        for (index, path) in plan.paths.enumerated() {
            guard let found = pathValues[pathBase + index] else { continue }
            var spelled = false
            for position in keyBase..<keys.count where childMask & (1 << UInt64(position - keyBase)) == 0 {
                if Self.equal(keys[position], path.nameBytes, cursor) {
                    spelled = true
                    break
                }
            }
            guard !spelled else { continue }
            pathMask |= 1 << UInt64(index)
            values.append(found)
        }
        guard let names = names(node: node, keyBase: keyBase, childMask: childMask, pathMask: pathMask, cursor) else {
            return nil
        }
        return (names, values)
    }

    /// Adds a record per element of the array at the cursor (its `[`), each followed by its
    /// own elements; the cursor moves past the array.
    private mutating func elements(
        _ cursor: inout JSONCursor, node: Int, parent: Int?, pointer: String, walk: inout Walk
    ) -> Bool {
        cursor.i += 1
        cursor.skipSpace()
        if cursor.take(93) { return true }  // ]
        var position = 0
        while true {
            guard cursor.peek == 123 else { return false }  // an element that is not an object
            let start = cursor.i
            var elementPointer = pointer
            elementPointer.append("/")
            elementPointer.append(String(position))
            walk.elements.append(
                DocumentElement(
                    node: node, parent: parent, position: position, pointer: elementPointer,
                    record: SourceRecord(line: 0, byteOffset: 0, raw: [], names: [], values: [])))
            let slot = walk.elements.count - 1
            guard let fields = record(&cursor, node: node, slot: slot, pointer: elementPointer, walk: &walk) else {
                return false
            }
            let raw = walk.document.raw
            walk.elements[slot].record = SourceRecord(
                line: walk.line(at: start, in: cursor), byteOffset: walk.document.byteOffset + Int64(start),
                raw: raw[(raw.startIndex + start)..<(raw.startIndex + cursor.i)], names: fields.names,
                values: fields.values)
            position += 1
            cursor.skipSpace()
            if cursor.take(44) {  // ,
                cursor.skipSpace()
                continue
            }
            return cursor.take(93)  // ]
        }
    }

    /// The record's names: the last record's when its keys and paths are the same; else new
    /// ones, checked (nil for a repeated or invalid key).
    private mutating func names(node: Int, keyBase: Int, childMask: UInt64, pathMask: UInt64, _ cursor: JSONCursor)
        -> [String]?
    {
        let count = keys.count - keyBase
        if count == lastKeyLengths[node].count, pathMask == lastPathMask[node] {
            var same = true
            var offset = 0
            lastKeyBytes[node].withUnsafeBufferPointer { last in
                for index in 0..<count {
                    let key = keys[keyBase + index]
                    guard key.count == lastKeyLengths[node][index],
                        key.isEmpty || memcmp(last.baseAddress! + offset, cursor.base + key.lowerBound, key.count) == 0
                    else {
                        same = false
                        return
                    }
                    offset += key.count
                }
            }
            if same { return lastNames[node] }
        }
        var names: [String] = []
        names.reserveCapacity(count + lastNames[node].count)
        var bytes: [UInt8] = []
        var lengths: [Int] = []
        for index in 0..<count {
            let key = keys[keyBase + index]
            for earlier in keys[keyBase..<keyBase + index] where Self.equal(earlier, key, cursor) { return nil }
            let slice = UnsafeBufferPointer(start: cursor.base + key.lowerBound, count: key.count)
            guard let name = UTF8Text.string(slice) else { return nil }
            if childMask & (1 << UInt64(index)) == 0 { names.append(name) }
            bytes.append(contentsOf: slice)
            lengths.append(key.count)
        }
        for (index, path) in plans![node].paths.enumerated() where pathMask & (1 << UInt64(index)) != 0 {
            names.append(path.name)
        }
        lastKeyBytes[node] = bytes
        lastKeyLengths[node] = lengths
        lastPathMask[node] = pathMask
        lastNames[node] = names
        return names
    }

    private static func index(of key: Range<Int>, in candidates: [[UInt8]], _ cursor: JSONCursor) -> Int? {
        for (index, candidate) in candidates.enumerated() where equal(key, candidate, cursor) { return index }
        return nil
    }

    @inline(__always)
    private static func equal(_ key: Range<Int>, _ bytes: [UInt8], _ cursor: JSONCursor) -> Bool {
        key.count == bytes.count
            && bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, cursor.base + key.lowerBound, key.count) == 0 }
    }

    @inline(__always)
    private static func equal(_ first: Range<Int>, _ second: Range<Int>, _ cursor: JSONCursor) -> Bool {
        first.count == second.count
            && (first.isEmpty
                || memcmp(cursor.base + first.lowerBound, cursor.base + second.lowerBound, first.count) == 0)
    }

    // MARK: Values

    /// What a nested value stands for.
    private enum Found {
        case value(FieldValue)
        /// Not there (a path), or not a MongoDB wrapper.
        case ordinary
        /// For the tree path.
        case decline
    }

    /// A field's value at the cursor, which moves past it: a scalar's, a MongoDB wrapper's,
    /// else the object's or array's text (docs/documents.md#paths-and-values).
    private mutating func value(_ cursor: inout JSONCursor) -> FieldValue? {
        let start = cursor.i
        switch cursor.peek {
        case 123, 91:  // { [
            guard skip(&cursor) else { return nil }
            let text = UnsafeBufferPointer(start: cursor.base + start, count: cursor.i - start)
            guard UTF8Text.isASCII(text) || String(validating: text, as: UTF8.self) != nil else { return nil }
            if Self.mayBeWrapper(cursor, at: start) {
                var inner = cursor
                inner.i = start
                switch wrapped(&inner) {
                case .value(let value): return value
                case .ordinary: break
                case .decline: return nil
                }
            }
            return .composite(String(decoding: text, as: UTF8.self))
        default:
            return scalar(&cursor)
        }
    }

    /// Whether the value at `start` is an object whose first key starts with `$`.
    private static func mayBeWrapper(_ cursor: JSONCursor, at start: Int) -> Bool {
        var probe = cursor
        probe.i = start
        guard probe.take(123) else { return false }
        probe.skipSpace()
        return probe.take(34) && probe.peek == 36  // "$
    }

    /// The string, number, boolean or null at the cursor, which moves past it.
    private mutating func scalar(_ cursor: inout JSONCursor) -> FieldValue? {
        let base = cursor.base, start = cursor.i
        switch cursor.peek {
        case 34:  // "
            return string(&cursor).map(FieldValue.text)
        case 45, 48...57:  // - 0-9
            guard let end = JSONNumber.end(base, from: start, count: cursor.count) else { return nil }
            cursor.i = end
            return .number(
                String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self))
        default:
            if cursor.take("true") { return .bool(true) }
            if cursor.take("false") { return .bool(false) }
            if cursor.take("null") { return .null }
            return nil
        }
    }

    /// Moves the cursor to the value at `path` in the object at the cursor: true if it is
    /// there, false if not, nil to decline.
    private mutating func locate(_ path: ArraySlice<[UInt8]>, _ cursor: inout JSONCursor) -> Bool? {
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

    /// The MongoDB Extended JSON value of the object at the cursor (already checked by `skip`),
    /// as `ExtendedJSON.value` reads it from a tree (docs/documents.md#mongodb-values).
    private mutating func wrapped(_ cursor: inout JSONCursor) -> Found {
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
    private mutating func skip(_ cursor: inout JSONCursor) -> Bool {
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
    private mutating func string(_ cursor: inout JSONCursor) -> String? {
        let start = cursor.i + 1
        var j = start
        var escaped = false
        while j < cursor.count {
            let byte = cursor.base[j]
            if byte == 34 { break }
            if byte < 32 { return nil }
            if byte == 92 {
                escaped = true
                j += 2
                continue
            }
            j += 1
        }
        guard j < cursor.count else { return nil }
        cursor.i = j + 1
        let content = UnsafeBufferPointer(start: cursor.base + start, count: j - start)
        return escaped ? unescaped(content) : UTF8Text.string(content)
    }

    /// `content` with its escapes replaced, if they are all JSON's and it is UTF-8.
    private mutating func unescaped(_ content: UnsafeBufferPointer<UInt8>) -> String? {
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

/// The scanner's steps over a JSON text.
extension JSONCursor {
    /// A key without escapes and its colon: the key's bytes; nil for the strict parser.
    @inline(__always) fileprivate mutating func plainKey() -> Range<Int>? {
        guard i < count, base[i] == 34 else { return nil }
        var j = i + 1
        while j < count {
            let byte = base[j]
            if byte == 34 { break }
            if byte < 32 || byte == 92 { return nil }
            j += 1
        }
        guard j < count else { return nil }
        let key = i + 1..<j
        i = j + 1
        skipSpace()
        guard take(58) else { return nil }  // :
        skipSpace()
        return key
    }

    /// Moves past the string whose opening quote is at the cursor, if its escapes are JSON's
    /// (its UTF-8 is not checked); false otherwise.
    fileprivate mutating func skipString() -> Bool {
        var j = i + 1
        while j < count {
            let byte = base[j]
            if byte == 34 {
                i = j + 1
                return true
            }
            if byte < 32 { return false }
            if byte == 92 {
                guard j + 1 < count else { return false }
                switch base[j + 1] {
                case 34, 92, 47, 98, 102, 110, 114, 116: j += 2
                case 117:
                    guard let scalar = hex4(at: j + 2), !(0xDC00...0xDFFF).contains(scalar) else { return false }
                    j += 6
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard j + 1 < count, base[j] == 92, base[j + 1] == 117, let low = hex4(at: j + 2),
                            (0xDC00...0xDFFF).contains(low)
                        else { return false }
                        j += 6
                    }
                default: return false
                }
                continue
            }
            j += 1
        }
        return false
    }

    private func hex4(at start: Int) -> UInt32? {
        guard start + 4 <= count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = JSONNumber.hexValue(base[start + offset]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }
}
