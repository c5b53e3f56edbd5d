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

    /// The next document, its records given to `stream` as they are read when the reader can
    /// and the stream takes them, else whole; nil at the end of the input.
    func nextDocument(streamingTo stream: DocumentStream?) throws -> ReadDocument?
}

/// A document as `DocumentRecordReader.nextDocument(streamingTo:)` read it.
package enum ReadDocument {
    /// Its records went to the stream; its text was `bytes` long.
    case streamed(bytes: Int)
    /// The document, whole.
    case whole(SourceDocument)
}

/// Takes a document's records while its reader scans them (docs/documents.md#large-documents):
/// each element once it is complete, so that its source values are freed before the next are
/// read. An element is complete before its parent is: it takes its parent's key from the fields
/// its parent had when the element's array began.
package protocol DocumentStream: AnyObject {
    /// A new document, whose text `root` holds.
    func begin(_ root: SourceRecord)
    /// The object `slot` (an element's index in the document; nil for the root) of shape node
    /// `node`, element `position` of its array in `parent`, has its first array of children
    /// next; `fields` are those read so far.
    func childrenFollow(_ slot: Int?, node: Int, parent: Int?, position: Int, fields: SourceRecord)
    /// Element `slot` is complete, and its children are. False when its key is not the one its
    /// children took (a key field after their array): the document must be read whole.
    func element(_ slot: Int, node: Int, parent: Int?, position: Int, record: SourceRecord) -> Bool
    /// The root is complete, and with it the document, whose elements' pointers are `pointers`.
    /// False as for `element`.
    func root(_ record: SourceRecord, pointers: PointerTable) -> Bool
}

/// A document reader that can cut its input, at document boundaries, into parts that other
/// threads read (NDJSON: whole lines).
package protocol PartitionedDocumentReader: DocumentRecordReader {
    /// A reader of the next whole documents (at most `maximumRecords`, and none begun once the
    /// part holds `maximumBytes`), to be read on any one thread; nil at the end of the input.
    func nextDocumentPart(maximumRecords: Int, maximumBytes: Int) throws -> sending DocumentRecordReader?
    /// Whether the input is a local file read as it is (not decompressed nor decoded): its bytes
    /// at a record's offset are the record's text.
    var readsFileAsItIs: Bool { get }
}
