/// One document as a document reader found it: its root record and the records of the
/// elements of its arrays (docs/documents.md).
package struct SourceDocument: Sendable {
    /// The document's own fields; its raw text is the whole document. When the text is not a
    /// document (`failure` set), there are no elements.
    package var root: SourceRecord
    /// Every element of the shape's arrays, depth first: each after its parent.
    package var elements: [DocumentElement]
    /// Each element's JSON pointer in the document, by its index in `elements`.
    package var pointers: PointerTable

    package init(root: SourceRecord, elements: [DocumentElement] = [], pointers: PointerTable = PointerTable()) {
        self.root = root
        self.elements = elements
        self.pointers = pointers
    }
}

/// An element of an array of a document: a record of a child entity.
package struct DocumentElement: Sendable {
    /// The `DocumentShape` node it belongs to.
    package let node: Int
    /// The index in `SourceDocument.elements` of the element holding its array; nil: the root.
    package let parent: Int?
    /// Its 0-based index in its array.
    package let position: Int
    /// Its fields (without the arrays of its own children); its raw text is the element's.
    package var record: SourceRecord

    package init(node: Int, parent: Int?, position: Int, record: SourceRecord) {
        self.node = node
        self.parent = parent
        self.position = position
        self.record = record
    }
}

/// A reader of JSON or NDJSON documents, each with its child records.
package protocol DocumentRecordReader: RecordReader {
    /// The next document, or nil at the end of the input. Malformed text comes back as a
    /// document whose root has `failure` set; only an I/O failure throws.
    func nextDocument() throws -> SourceDocument?
}

/// A document reader that can cut its input, at document boundaries, into parts that other
/// threads read (NDJSON: whole lines).
package protocol PartitionedDocumentReader: DocumentRecordReader {
    /// A reader of the next whole documents (at most `maximumRecords`, and none begun once the
    /// part holds `maximumBytes`), to be read on any one thread; nil at the end of the input.
    func nextDocumentPart(maximumRecords: Int, maximumBytes: Int) throws -> sending DocumentRecordReader?
}
