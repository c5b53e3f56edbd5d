import ImporterCore

/// A JSON object parsed whole, strictly (`StrictJSONParser`'s rules), into a tree of nodes over
/// its text: what a document reader walks to find the document's fields, arrays and paths
/// (docs/documents.md). Nodes are stored flat, in text order; a container links to its first
/// child and each child to its next sibling.
struct JSONTree {
    enum Kind { case object, array, scalar }

    struct Node {
        let kind: Kind
        /// The key in its object; nil in an array, and for the root.
        let key: String?
        /// A scalar's value (`.null` for containers).
        let value: FieldValue
        /// Where its text starts and ends (exclusive) in the parsed text.
        let start: Int
        var end: Int
        var firstChild = -1
        var nextSibling = -1
    }

    private(set) var nodes: [Node] = []

    /// The children of the container at `index`, in order.
    func children(of index: Int) -> ChildIndices { ChildIndices(tree: self, cursor: nodes[index].firstChild) }

    /// The node the keys of `path` lead to from the object at `index`, if there is one.
    func node(at path: some Sequence<String>, from index: Int) -> Int? {
        var current = index
        for key in path {
            guard nodes[current].kind == .object,
                let next = children(of: current).first(where: { nodes[$0].key == key })
            else { return nil }
            current = next
        }
        return current
    }

    struct ChildIndices: Sequence, IteratorProtocol {
        let tree: JSONTree
        var cursor: Int
        mutating func next() -> Int? {
            guard cursor >= 0 else { return nil }
            defer { cursor = tree.nodes[cursor].nextSibling }
            return cursor
        }
    }

    /// Adds a node under the open container `parent` (nil: the root), after `last`, its last child.
    fileprivate mutating func add(_ node: Node, parent: Int?, after last: Int) -> Int {
        nodes.append(node)
        let index = nodes.count - 1
        if last >= 0 {
            nodes[last].nextSibling = index
        } else if let parent {
            nodes[parent].firstChild = index
        }
        return index
    }

    fileprivate mutating func close(_ index: Int, at end: Int) { nodes[index].end = end }
}

extension StrictJSONParser {
    /// The object that is the whole of `text`, as a tree; or what is wrong with it. No
    /// recursion: open containers are a stack, at most `maximumDepth` deep.
    mutating func tree(_ text: UnsafeBufferPointer<UInt8>) -> Result<JSONTree, SyntaxError> {
        guard let base = text.baseAddress, !text.isEmpty else {
            return .failure(error("the record is empty, not a JSON object", at: 0))
        }
        var cursor = JSONCursor(base: base, count: text.count)
        var tree = JSONTree()
        /// Per open container: its node, its last child so far, whether it is an object, and
        /// its keys once it has many (a few are compared one by one: no set to build).
        var open: [(node: Int, last: Int, isObject: Bool, keys: Set<String>?)] = []
        /// Whether the open object already has `name`.
        func isRepeated(_ name: String) -> Bool {
            let top = open.count - 1
            if open[top].keys != nil { return !open[top].keys!.insert(name).inserted }
            var count = 0
            var member = tree.nodes[open[top].node].firstChild
            while member >= 0 {
                if tree.nodes[member].key == name { return true }
                count += 1
                member = tree.nodes[member].nextSibling
            }
            if count >= 16 {  // from now on, a set
                var keys = Set<String>(minimumCapacity: count * 2)
                member = tree.nodes[open[top].node].firstChild
                while member >= 0 {
                    keys.insert(tree.nodes[member].key!)
                    member = tree.nodes[member].nextSibling
                }
                keys.insert(name)
                open[top].keys = keys
            }
            return false
        }
        func enter(key: String?) throws {
            guard open.count < Self.maximumDepth else {
                throw error("nesting deeper than \(Self.maximumDepth) levels", at: cursor.i)
            }
            let isObject = cursor.peek == UInt8(ascii: "{")
            let node = JSONTree.Node(
                kind: isObject ? .object : .array, key: key, value: .null, start: cursor.i, end: cursor.i)
            let index = tree.add(node, parent: open.last?.node, after: open.last?.last ?? -1)
            if !open.isEmpty { open[open.count - 1].last = index }
            open.append((index, -1, isObject, nil))
            cursor.i += 1
            cursor.skipSpace()
        }
        do {
            cursor.skipSpace()
            guard cursor.peek == UInt8(ascii: "{") else {
                _ = try value(&cursor)  // a syntax error in it is the better message
                throw error("the record is \(kindName(text[0])), not a JSON object", at: 0)
            }
            try enter(key: nil)
            while let top = open.last {
                let closing = top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if cursor.take(closing) {
                    tree.close(top.node, at: cursor.i)
                    open.removeLast()
                } else {
                    var key: String?
                    if top.isObject {
                        let keyOffset = cursor.i
                        let name = try self.key(&cursor)
                        guard !isRepeated(name) else {
                            throw error("the key \"\(name)\" appears twice in the object", at: keyOffset)
                        }
                        key = name
                    }
                    if cursor.peek == UInt8(ascii: "{") || cursor.peek == UInt8(ascii: "[") {
                        try enter(key: key)
                        continue
                    }
                    let start = cursor.i
                    let scalar = try value(&cursor)
                    let index = tree.add(
                        JSONTree.Node(kind: .scalar, key: key, value: scalar, start: start, end: cursor.i),
                        parent: top.node, after: top.last)
                    open[open.count - 1].last = index
                }
                try afterElement(&cursor, open.last.map { $0.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]") })
            }
            try end(&cursor)
            return .success(tree)
        } catch let problem as SyntaxError {
            return .failure(problem)
        } catch {
            return .failure(self.error("\(error)", at: 0))
        }
    }
}
