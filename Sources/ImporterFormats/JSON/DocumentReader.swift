import Foundation
import ImporterCore

/// Reads the documents of a JSON array or NDJSON input (docs/documents.md): `DocumentScanner`
/// makes each element's or line's root record and the records of its arrays' elements from its
/// bytes; what it declines is parsed whole into a `JSONTree`, which `DocumentExpander` walks.
package final class DocumentReader: DocumentRecordReader {
    private let base: RecordReader
    private var parser = StrictJSONParser()
    private var scanner: DocumentScanner
    private var expander: DocumentExpander

    /// `base` reads the documents' text (layout `.document`); `shape` says what to take of them.
    init(base: RecordReader, shape: DocumentShape) {
        self.base = base
        scanner = DocumentScanner(shape: shape)
        expander = DocumentExpander(shape: shape)
    }

    package var bytesRead: Int64 { base.bytesRead }

    package func nextDocument() throws -> SourceDocument? {
        guard let record = try base.next() else { return nil }
        return whole(record)
    }

    package func nextDocument(streamingTo stream: DocumentStream?) throws -> ReadDocument? {
        guard let record = try base.next() else { return nil }
        if let stream, scanner.stream(record, to: stream) { return .streamed(bytes: record.raw.count) }
        return .whole(whole(record))
    }

    /// The document whose text `record` holds, read whole.
    private func whole(_ record: SourceRecord) -> SourceDocument {
        var record = record
        guard record.failure == nil else { return SourceDocument(root: record) }
        if let document = scanner.document(record) { return document }
        let parsed = record.raw.withUnsafeBufferPointer { parser.tree($0) }
        switch parsed {
        case .success(let tree):
            return expander.document(record, tree)
        case .failure(let problem):
            record.failure = JSONTextParser.rejection(problem)
            return SourceDocument(root: record)
        }
    }

    /// The document's root record (its elements are read with `nextDocument`).
    package func next() throws -> SourceRecord? { try nextDocument()?.root }
}

/// Documents one per line (NDJSON) or one per element of a JSON array, which can be cut into
/// parts of whole documents that other threads parse, each with a parser of its own.
final class PartitionedDocuments: PartitionedDocumentReader {
    private let texts: PartitionedRecordReader
    private let reader: DocumentReader
    private let shape: DocumentShape
    let readsFileAsItIs: Bool

    /// `texts` reads the documents' text (layout `.document`); `readsFileAsItIs` when that is
    /// a local file's bytes as they are.
    init(texts: PartitionedRecordReader, shape: DocumentShape, readsFileAsItIs: Bool) {
        self.texts = texts
        self.shape = shape
        self.readsFileAsItIs = readsFileAsItIs
        reader = DocumentReader(base: texts, shape: shape)
    }

    var bytesRead: Int64 { texts.bytesRead }

    func next() throws -> SourceRecord? { try reader.next() }

    func nextDocument() throws -> SourceDocument? { try reader.nextDocument() }

    func nextDocument(streamingTo stream: DocumentStream?) throws -> ReadDocument? {
        try reader.nextDocument(streamingTo: stream)
    }

    func nextDocumentPart(maximumRecords: Int, maximumBytes: Int) throws -> sending DocumentRecordReader? {
        guard let part = try texts.nextPart(maximumRecords: maximumRecords, maximumBytes: maximumBytes) else {
            return nil
        }
        return DocumentReader(base: part, shape: shape)
    }
}

/// Makes a document's records from its tree: the fields of each object a `DocumentShape` node
/// reads (with the values of its dotted paths), and an element record per object of each of
/// the node's arrays, depth first.
struct DocumentExpander {
    let shape: DocumentShape
    /// Per node: the first keys of its children's array paths (not fields of its records).
    private let arrayRoots: [[String]]
    /// Per node: the split `valuePaths`.
    private let valuePaths: [[(name: String, keys: [String])]]
    /// Per node: the names of its last record. A record with the same keys shares the array,
    /// which also lets the mapper see at once that the names did not change.
    private var lastNames: [[String]]

    init(shape: DocumentShape) {
        self.shape = shape
        arrayRoots = shape.nodes.map { node in
            node.children.map { shape.nodes[$0].arrayPath[0] }
        }
        valuePaths = shape.nodes.map { node in
            node.valuePaths.map { ($0, $0.split(separator: ".").map(String.init)) }
        }
        lastNames = shape.nodes.map { _ in [] }
    }

    mutating func document(_ root: SourceRecord, _ tree: JSONTree) -> SourceDocument {
        var walk = Walk(expander: self, tree: tree, document: root)
        var document = SourceDocument(root: root)
        (document.root.names, document.root.values) = walk.fields(of: 0, node: 0)
        document.root.absentArrays = walk.absentArrays(of: 0, node: 0)
        document.root.failure = walk.addElements(of: 0, node: 0, parent: nil, pointer: "")
        document.elements = walk.elements
        document.pointers = walk.pointers
        lastNames = walk.lastNames
        return document
    }

    /// One document's walk.
    private struct Walk {
        let expander: DocumentExpander
        let tree: JSONTree
        let document: SourceRecord
        var elements: [DocumentElement] = []
        var pointers = PointerTable()
        var lastNames: [[String]]
        /// Offsets of the document's line feeds, once an element's line is asked for.
        private var lineFeeds: [Int]?

        init(expander: DocumentExpander, tree: JSONTree, document: SourceRecord) {
            self.expander = expander
            self.tree = tree
            self.document = document
            lastNames = expander.lastNames
        }

        /// The fields of the object at `index`, read for shape node `node`.
        mutating func fields(of index: Int, node: Int) -> (names: [String], values: [FieldValue]) {
            let last = lastNames[node]
            // Names are only made once one differs from the last record's.
            var names: [String]?
            var values: [FieldValue] = []
            values.reserveCapacity(last.count)
            func add(_ name: String, _ value: FieldValue) {
                let position = values.count
                if names == nil, position >= last.count || last[position] != name {
                    names = Array(last[..<min(position, last.count)])
                }
                names?.append(name)
                values.append(value)
            }
            for member in tree.children(of: index) {
                let key = tree.nodes[member].key!
                if expander.arrayRoots[node].contains(key) || expander.shape.nodes[node].droppedRoots.contains(key) {
                    continue
                }
                add(key, value(of: member))
            }
            for path in expander.valuePaths[node] {
                // A key spelled like the path (`"geo.lat": …`) is the field already.
                guard let member = tree.node(at: path.keys, from: index),
                    !values.indices.contains(where: { (names?[$0] ?? last[$0]) == path.name })
                else { continue }
                add(path.name, value(of: member))
            }
            if names == nil && values.count < last.count { names = Array(last[..<values.count]) }
            if let names {
                lastNames[node] = names
                return (names, values)
            }
            return (last, values)
        }

        /// The children of `node` whose array the object at `index` has no key for, as bits in
        /// the order of its children (`SourceRecord.absentArrays`).
        func absentArrays(of index: Int, node: Int) -> UInt64 {
            var absent: UInt64 = 0
            for (bit, child) in expander.shape.nodes[node].children.enumerated()
            where tree.node(at: expander.shape.nodes[child].arrayPath, from: index) == nil {
                absent |= 1 << UInt64(bit)
            }
            return absent
        }

        /// A field's value: a scalar's, a MongoDB wrapper's, else the object's or array's text.
        private func value(of index: Int) -> FieldValue {
            if tree.nodes[index].kind == .scalar { return tree.nodes[index].value }
            if let value = ExtendedJSON.value(of: index, in: tree) { return value }
            let (start, end) = (tree.nodes[index].start, tree.nodes[index].end)
            return .composite(String(decoding: document.raw.dropFirst(start).prefix(end - start), as: UTF8.self))
        }

        /// Adds the elements of `node`'s child arrays in the object at `index` (the element
        /// `parent` of `elements`, or the root), depth first. Returns the rejection of the
        /// object when one of its child paths holds something other than an array (or null).
        mutating func addElements(of index: Int, node: Int, parent: Int?, pointer: String) -> Rejection? {
            for child in expander.shape.nodes[node].children {
                let path = expander.shape.nodes[child].arrayPath
                guard let array = tree.node(at: path, from: index) else { continue }
                let arrayNode = tree.nodes[array]
                if arrayNode.kind == .scalar, arrayNode.value == .null { continue }
                let arrayPointer = pointer + path.map { "/" + JSONPointer.escaped($0) }.joined()
                guard arrayNode.kind == .array else {
                    return Rejection(
                        stage: .read, reason: .malformed, field: path.joined(separator: "."),
                        "\(arrayPointer) is \(arrayNode.kind == .object ? "an object" : "a single value"), not an array of objects; the source's children read an array there"
                    )
                }
                for (position, element) in tree.children(of: array).enumerated() {
                    let elementPointer = "\(arrayPointer)/\(position)"
                    let elementNode = tree.nodes[element]
                    var record = SourceRecord(
                        line: line(at: elementNode.start),
                        byteOffset: document.byteOffset + Int64(elementNode.start),
                        raw: document.raw.dropFirst(elementNode.start).prefix(elementNode.end - elementNode.start),
                        names: [], values: [])
                    if elementNode.kind == .object {
                        (record.names, record.values) = fields(of: element, node: child)
                        record.absentArrays = absentArrays(of: element, node: child)
                    } else {
                        record.failure = Rejection(
                            stage: .read, reason: .malformed,
                            "the element at \(elementPointer) is \(elementNode.kind == .array ? "an array" : "a single value"), not an object"
                        )
                    }
                    elements.append(DocumentElement(node: child, parent: parent, position: position, record: record))
                    pointers.append(elementPointer)
                    guard elementNode.kind == .object else { continue }
                    let added = elements.count - 1
                    if let rejection = addElements(of: element, node: child, parent: added, pointer: elementPointer) {
                        elements[added].record.failure = rejection
                    }
                }
            }
            return nil
        }

        /// The line of the document's byte `offset`.
        private mutating func line(at offset: Int) -> Int {
            if lineFeeds == nil {
                lineFeeds = document.raw.indices.filter { document.raw[$0] == 10 }.map { $0 - document.raw.startIndex }
            }
            var low = 0, high = lineFeeds!.count
            while low < high {
                let middle = (low + high) / 2
                if lineFeeds![middle] < offset { low = middle + 1 } else { high = middle }
            }
            return document.line + low
        }
    }
}
