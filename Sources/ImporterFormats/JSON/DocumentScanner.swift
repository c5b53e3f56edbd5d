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
    /// it with one retain; constants, so reading them needs no exclusivity check).
    private final class Plan {
        /// The node's children: each one's array key, node, and array pointer (`/towns`).
        let childKeys: [[UInt8]]
        let childNodes: [Int]
        let childPointers: [[UInt8]]
        /// The node's dotted paths (sorted, as the shape has them), split into keys.
        let paths: [(name: String, nameBytes: [UInt8], keys: [[UInt8]])]
        /// The paths' first keys, each once.
        let roots: [Root]
        /// The lengths of the children's array keys, of the paths' first keys and of the paths'
        /// whole names: most keys are told apart from them by their length alone.
        let childLengths: ByteLengths
        let rootLengths: ByteLengths
        let nameLengths: ByteLengths

        /// A first key of the node's paths (`geo` of `geo.lat` and `geo.lon`).
        struct Root {
            let key: [UInt8]
            /// The paths under it, by index.
            let paths: [Int]
            /// Whether one of them is two keys long: a plain object there has its members read
            /// once, not once for the object and again for each path.
            let readsMembers: Bool
            /// Whether the object is not a field (`DocumentShape.Node.droppedRoots`): its text
            /// is never made.
            let dropped: Bool
        }

        init(
            childKeys: [[UInt8]], childNodes: [Int], childPointers: [[UInt8]],
            paths: [(name: String, nameBytes: [UInt8], keys: [[UInt8]])], droppedRoots: Set<String>
        ) {
            (self.childKeys, self.childNodes, self.childPointers, self.paths) = (
                childKeys, childNodes, childPointers, paths
            )
            var roots: [Root] = []
            for key in paths.map({ $0.keys[0] }) where !roots.contains(where: { $0.key == key }) {
                let under = paths.indices.filter { paths[$0].keys[0] == key }
                roots.append(
                    Root(
                        key: key, paths: under, readsMembers: under.contains { paths[$0].keys.count == 2 },
                        dropped: droppedRoots.contains(String(decoding: key, as: UTF8.self))))
            }
            self.roots = roots
            childLengths = ByteLengths(childKeys.map(\.count))
            rootLengths = ByteLengths(paths.map { $0.keys[0].count })
            nameLengths = ByteLengths(paths.map(\.nameBytes.count))
        }

        /// The index in `roots` of the one `key` (in the text `cursor` reads) is, if any.
        @inline(__always)
        func root(of key: Range<Int>, _ cursor: JSONCursor) -> Int? {
            for index in roots.indices where DocumentScanner.equal(key, roots[index].key, cursor) { return index }
            return nil
        }
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
    var keys: [Range<Int>] = []
    /// The values found at the paths of the objects being scanned.
    private var pathValues: [FieldValue?] = []
    /// The open containers of a value being skipped: an object's first key in `keys`, or -1.
    var open: [Int] = []
    /// Unescaped string bytes.
    var scratch: [UInt8] = []

    init(shape: DocumentShape) {
        var plans: [Plan]? = []
        for node in shape.nodes {
            var childKeys: [[UInt8]] = [], childPointers: [[UInt8]] = []
            var paths: [(name: String, nameBytes: [UInt8], keys: [[UInt8]])] = []
            for child in node.children {
                let path = shape.nodes[child].arrayPath
                guard path.count == 1 else {
                    plans = nil
                    break
                }
                childKeys.append(Array(path[0].utf8))
                childPointers.append(Array(("/" + JSONPointer.escaped(path[0])).utf8))
            }
            for name in node.valuePaths {
                let keys = name.split(separator: ".").map { Array($0.utf8) }
                // A path through a child's array, an empty one, one named twice, or over 64
                // paths: the tree path.
                if keys.isEmpty || childKeys.contains(keys[0]) || node.valuePaths.count > 64
                    || paths.contains(where: { $0.name == name })
                {
                    plans = nil
                    break
                }
                paths.append((name, Array(name.utf8), keys))
            }
            plans?.append(
                Plan(
                    childKeys: childKeys, childNodes: node.children, childPointers: childPointers, paths: paths,
                    droppedRoots: node.droppedRoots))
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
        var document: SourceDocument?
        _ = scan(root, stream: nil) { walk, fields in
            document = SourceDocument(root: root, elements: walk.elements, pointers: walk.pointers)
            (document!.root.names, document!.root.values, document!.root.absentArrays) = fields
            return true
        }
        return document
    }

    /// Gives the records of the document `root` holds to `stream` as they are read (each
    /// element once it is complete, the root last); false when the scanner declines the
    /// document or the stream stops it, and the document is then read whole.
    mutating func stream(_ root: SourceRecord, to stream: DocumentStream) -> Bool {
        scan(root, stream: stream) { walk, fields in
            var record = root
            (record.names, record.values, record.absentArrays) = fields
            return stream.root(record, pointers: walk.pointers)
        }
    }

    /// Scans the document `root` holds, then calls `end` with its root's fields once nothing in
    /// it is declined; false when something is, or when `end` says so.
    private mutating func scan(
        _ root: SourceRecord, stream: DocumentStream?,
        end: (inout Walk, Fields) -> Bool
    ) -> Bool {
        guard plans != nil, root.failure == nil else { return false }
        return root.raw.withUnsafeBufferPointer { text -> Bool in
            guard let base = text.baseAddress else { return false }
            var cursor = JSONCursor(base: base, count: text.count)
            var walk = Walk(document: root, stream: stream)
            stream?.begin(root)
            cursor.skipSpace()
            guard cursor.peek == 123,  // {
                let fields = record(&cursor, node: 0, slot: nil, parent: nil, position: 0, walk: &walk)
            else {
                keys.removeAll(keepingCapacity: true)
                pathValues.removeAll(keepingCapacity: true)
                return false
            }
            cursor.skipSpace()
            guard cursor.atEnd else { return false }
            return end(&walk, fields)
        }
    }

    /// One document's records so far.
    private struct Walk {
        let document: SourceRecord
        /// Where each element goes once complete; nil: into `elements`.
        let stream: DocumentStream?
        var elements: [DocumentElement] = []
        var pointers = PointerTable()
        /// Offsets of the document's line feeds, once an element's line is asked for.
        var lineFeeds: [Int]?

        init(document: SourceRecord, stream: DocumentStream?) {
            self.document = document
            self.stream = stream
        }

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

    /// An object's fields, and the children's arrays it has no key for (`SourceRecord.absentArrays`).
    private typealias Fields = (names: [String], values: [FieldValue], absentArrays: UInt64)

    /// The fields of the object at the cursor, a record of `node` (element `slot` of the walk,
    /// element `position` of its array in element `parent`; nil for the root), after adding its
    /// children's elements; the cursor moves past it.
    private mutating func record(
        _ cursor: inout JSONCursor, node: Int, slot: Int?, parent: Int?, position: Int, walk: inout Walk
    ) -> Fields? {
        let plan = plans![node]
        let keyBase = keys.count, pathBase = pathValues.count
        defer {
            keys.removeSubrange(keyBase...)
            // One by one: a node has a few paths, and removing or adding a range costs more.
            while pathValues.count > pathBase { pathValues.removeLast() }
        }
        for _ in 0..<plan.paths.count { pathValues.append(nil) }
        var values: [FieldValue] = []
        values.reserveCapacity(lastNames[node].count)
        // The keys that are not fields: children's arrays, and dropped roots, by place.
        var leftOut: UInt64 = 0
        var nextChild = 0
        // The children whose array key the object has.
        var present: UInt64 = 0
        // Whether the stream was told that this object's children follow.
        var announced = false
        // The paths whose names a key spells (`"geo.lat": …`): that key is the field.
        var spelled: UInt64 = 0
        cursor.i += 1
        cursor.skipSpace()
        if !cursor.take(125) {  // }
            while true {
                guard keys.count - keyBase < 64, let key = cursor.plainKey() else { return nil }
                keys.append(key)
                if plan.childLengths.contains(key.count),
                    let child = Self.index(of: key, in: plan.childKeys, cursor)
                {
                    // Children in the pipeline's order keep the tree path's order of elements.
                    guard child >= nextChild else { return nil }
                    nextChild = child + 1
                    present |= 1 << UInt64(child)
                    leftOut |= 1 << UInt64(keys.count - 1 - keyBase)
                    if !cursor.take("null") {
                        if let stream = walk.stream, !announced {
                            announced = true
                            guard let fields = fieldsSoFar(keyBase: keyBase, leftOut: leftOut, values, cursor)
                            else { return nil }
                            stream.childrenFollow(slot, node: node, parent: parent, position: position, fields: fields)
                        }
                        guard cursor.peek == 91,  // [
                            elements(
                                &cursor, node: plan.childNodes[child], parent: slot,
                                arrayPointer: plan.childPointers[child], walk: &walk)
                        else { return nil }
                    }
                } else {
                    let start = cursor.i
                    if plan.nameLengths.contains(key.count) {
                        for index in plan.paths.indices where Self.equal(key, plan.paths[index].nameBytes, cursor) {
                            spelled |= 1 << UInt64(index)
                        }
                    }
                    let root = plan.rootLengths.contains(key.count) ? plan.root(of: key, cursor) : nil
                    let membersRead =
                        root.map { plan.roots[$0].readsMembers } == true && cursor.peek == 123
                        && !Self.mayBeWrapper(cursor, at: start)
                    let dropped = root.map { plan.roots[$0].dropped } == true
                    let value: FieldValue
                    if membersRead {
                        guard readMembers(&cursor, of: root!, plan: plan, pathBase: pathBase) else { return nil }
                        if dropped {
                            // Its text is checked as making it would, and not made.
                            guard Self.isText(cursor, from: start, to: cursor.i) else { return nil }
                            value = .null
                        } else {
                            guard let text = Self.text(cursor, from: start, to: cursor.i) else { return nil }
                            value = .composite(text)
                        }
                    } else {
                        guard let read = self.value(&cursor) else { return nil }
                        value = read
                    }
                    if let root {
                        for index in plan.roots[root].paths {
                            let path = plan.paths[index]
                            if path.keys.count == 1 {
                                pathValues[pathBase + index] = value
                                continue
                            }
                            if membersRead && path.keys.count == 2 { continue }
                            var inner = cursor
                            inner.i = start
                            guard let found = locate(path.keys.dropFirst(), &inner) else { return nil }
                            if found {
                                guard let value = self.value(&inner) else { return nil }
                                pathValues[pathBase + index] = value
                            }
                        }
                    }
                    if dropped {
                        leftOut |= 1 << UInt64(keys.count - 1 - keyBase)
                    } else {
                        // Last: the value is moved in, not copied.
                        values.append(value)
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
        // The paths found, unless a key spells one.
        var pathMask: UInt64 = 0
        for index in plan.paths.indices where spelled & (1 << UInt64(index)) == 0 {
            guard let found = pathValues[pathBase + index] else { continue }
            pathMask |= 1 << UInt64(index)
            values.append(found)
        }
        guard let names = names(node: node, keyBase: keyBase, leftOut: leftOut, pathMask: pathMask, cursor) else {
            return nil
        }
        return (names, values, UInt64.max >> UInt64(64 - plan.childKeys.count) & ~present)
    }

    /// Moves past the plain object at the cursor, held by `plan`'s root `root`, checked as
    /// `skip` checks it, and puts the value of each of the root's paths two keys long in
    /// `pathValues` (from `pathBase`); false to decline.
    private mutating func readMembers(_ cursor: inout JSONCursor, of root: Int, plan: Plan, pathBase: Int) -> Bool {
        let keyBase = keys.count
        defer { keys.removeSubrange(keyBase...) }
        cursor.i += 1
        cursor.skipSpace()
        if cursor.take(125) { return true }  // }
        while true {
            guard keys.count - keyBase < 64, let member = cursor.plainKey() else { return false }
            for earlier in keys[keyBase...] where Self.equal(earlier, member, cursor) { return false }
            keys.append(member)
            let path = plan.roots[root].paths.first {
                plan.paths[$0].keys.count == 2 && Self.equal(member, plan.paths[$0].keys[1], cursor)
            }
            if let path {
                guard let value = value(&cursor) else { return false }
                pathValues[pathBase + path] = value
            } else {
                guard skip(&cursor) else { return false }
            }
            cursor.skipSpace()
            guard cursor.take(44) else { return cursor.take(125) }  // , }
            cursor.skipSpace()
        }
    }

    /// Adds a record per element of the array at the cursor (its `[`, at `arrayPointer` in the
    /// element `parent`, nil for the root), each followed by its own elements; the cursor moves
    /// past the array.
    private mutating func elements(
        _ cursor: inout JSONCursor, node: Int, parent: Int?, arrayPointer: [UInt8], walk: inout Walk
    ) -> Bool {
        cursor.i += 1
        cursor.skipSpace()
        if cursor.take(93) { return true }  // ]
        var position = 0
        while true {
            guard cursor.peek == 123 else { return false }  // an element that is not an object
            let start = cursor.i
            // An element is numbered by its pointer's place; streamed, it needs no other.
            walk.pointers.append(position: position, of: arrayPointer, under: parent)
            let slot = walk.pointers.count - 1
            if walk.stream == nil {
                walk.elements.append(
                    DocumentElement(
                        node: node, parent: parent, position: position,
                        record: SourceRecord(line: 0, byteOffset: 0, raw: [], names: [], values: [])))
            }
            guard let fields = record(&cursor, node: node, slot: slot, parent: parent, position: position, walk: &walk)
            else {
                return false
            }
            let raw = walk.document.raw
            var record = SourceRecord(
                line: walk.line(at: start, in: cursor), byteOffset: walk.document.byteOffset + Int64(start),
                raw: raw[(raw.startIndex + start)..<(raw.startIndex + cursor.i)], names: fields.names,
                values: fields.values)
            record.absentArrays = fields.absentArrays
            if let stream = walk.stream {
                guard stream.element(slot, node: node, parent: parent, position: position, record: record) else {
                    return false
                }
            } else {
                walk.elements[slot].record = record
            }
            position += 1
            cursor.skipSpace()
            if cursor.take(44) {  // ,
                cursor.skipSpace()
                continue
            }
            return cursor.take(93)  // ]
        }
    }

    /// The fields of the object being scanned read so far (its keys from `keyBase` on, but those
    /// `leftOut` marks), for a stream; nil for a key that is not UTF-8.
    private func fieldsSoFar(keyBase: Int, leftOut: UInt64, _ values: [FieldValue], _ cursor: JSONCursor)
        -> SourceRecord?
    {
        var names: [String] = []
        names.reserveCapacity(values.count)
        for index in 0..<(keys.count - keyBase) where leftOut & (1 << UInt64(index)) == 0 {
            let key = keys[keyBase + index]
            guard let name = UTF8Text.string(UnsafeBufferPointer(start: cursor.base + key.lowerBound, count: key.count))
            else { return nil }
            names.append(name)
        }
        return SourceRecord(line: 0, byteOffset: 0, raw: [], names: names, values: values)
    }

    /// The record's names: the last record's when its keys and paths are the same; else new
    /// ones, checked (nil for a repeated or invalid key).
    private mutating func names(node: Int, keyBase: Int, leftOut: UInt64, pathMask: UInt64, _ cursor: JSONCursor)
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
            if leftOut & (1 << UInt64(index)) == 0 { names.append(name) }
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

    static func index(of key: Range<Int>, in candidates: [[UInt8]], _ cursor: JSONCursor) -> Int? {
        for (index, candidate) in candidates.enumerated() where equal(key, candidate, cursor) { return index }
        return nil
    }

    @inline(__always)
    static func equal(_ key: Range<Int>, _ bytes: [UInt8], _ cursor: JSONCursor) -> Bool {
        key.count == bytes.count
            && bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, cursor.base + key.lowerBound, key.count) == 0 }
    }

    @inline(__always)
    static func equal(_ first: Range<Int>, _ second: Range<Int>, _ cursor: JSONCursor) -> Bool {
        first.count == second.count
            && (first.isEmpty
                || memcmp(cursor.base + first.lowerBound, cursor.base + second.lowerBound, first.count) == 0)
    }
}
