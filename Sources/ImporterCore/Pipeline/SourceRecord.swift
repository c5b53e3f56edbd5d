/// One record as a reader found it, with where it came from.
package struct SourceRecord: Sendable {
    /// The 1-based line on which the record starts.
    package var line: Int
    /// The byte offset of the record's first byte in the (decompressed) input.
    package var byteOffset: Int64
    /// The record's original source text, to be written into rejects.ndjson.
    package var raw: ArraySlice<UInt8>
    /// Field names: a CSV header (shared by every record) or a JSON object's keys.
    package var names: [String]
    /// Field values, parallel to `names`.
    package var values: [FieldValue]
    /// Set when the reader could not make a record of the text; its values are then empty.
    package var failure: Rejection? {
        get { failureBox?.rejection }
        set { failureBox = newValue.map(FailureBox.init) }
    }
    /// For an object of a document (its root or an element): bit `i` is set when the object has
    /// no key at all for the array of its `i`-th child (in the shape's order), as a projection
    /// leaves it out; `null` and `[]` are there (docs/documents.md#missing-arrays).
    package var absentArrays: UInt64 = 0
    /// `failure`, boxed: few records have one, and a `Rejection` in place would make every
    /// record (and a document's every element, held until its end) eight words larger.
    private var failureBox: FailureBox?

    private final class FailureBox: Sendable {
        let rejection: Rejection
        init(_ rejection: Rejection) { self.rejection = rejection }
    }

    package init(
        line: Int, byteOffset: Int64, raw: ArraySlice<UInt8>, names: [String], values: [FieldValue],
        failure: Rejection? = nil
    ) {
        self.line = line
        self.byteOffset = byteOffset
        self.raw = raw
        self.names = names
        self.values = values
        failureBox = failure.map(FailureBox.init)
    }

    /// How much of a record too large to keep (`maxRecordBytes`) its rejection shows as raw text.
    package static let excerptBytes = 1024

    /// The first `excerptBytes` of `bytes`, copied (not a view that keeps a large window alive).
    package static func excerpt(of bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        ArraySlice(Array(bytes.prefix(excerptBytes)))
    }
}

/// A streaming reader of one input file. Memory stays bounded whatever the file's size.
package protocol RecordReader: AnyObject {
    /// The next record, or nil at the end of the input. Malformed text comes back as a record
    /// with `failure` set; only an I/O failure throws.
    func next() throws -> SourceRecord?
    /// Bytes consumed from the file on disk so far (compressed bytes for .gz).
    var bytesRead: Int64 { get }
}

/// A reader that can cut its input, at record boundaries, into parts that other threads read.
package protocol PartitionedRecordReader: RecordReader {
    /// A reader of the next whole records (at most `maximumRecords`, and none begun once the
    /// part holds `maximumBytes`), to be read on any one thread; nil at the end of the input.
    /// Its records carry their lines and offsets in the whole input, and come out exactly as
    /// `next()` would have returned them. The part shares nothing with this reader (`sending`):
    /// another thread reads it.
    func nextPart(maximumRecords: Int, maximumBytes: Int) throws -> sending RecordReader?
}

extension PartitionedRecordReader {
    /// The next part of at most `maximumRecords` records, whatever their size.
    package func nextPart(maximumRecords: Int) throws -> sending RecordReader? {
        try nextPart(maximumRecords: maximumRecords, maximumBytes: .max)
    }
}

/// An input format, as a pipeline source names it.
package enum InputFormat: String, Sendable {
    case csv, tsv, ndjson, json
    /// DynamoDB's export lines, `{"Item":{"attr":{"S":"…"}}}` (never implied by a file name).
    case dynamodbJSON = "dynamodb-json"
    /// A DynamoDB "export to S3" folder: its manifests, and `data/*.json.gz` of DynamoDB JSON
    /// lines, every file checked against the manifest before anything is written (docs/pipeline.md#dynamodb-exports).
    case dynamodbExport = "dynamodb-export"

    /// The format implied by a file name (`.csv`, `.tsv`, `.ndjson`/`.jsonl`, `.json`, plus `.gz`).
    package init?(path: String) {
        var name = path.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        if name.hasSuffix(".csv") {
            self = .csv
        } else if name.hasSuffix(".tsv") || name.hasSuffix(".tab") {
            self = .tsv
        } else if name.hasSuffix(".ndjson") || name.hasSuffix(".jsonl") {
            self = .ndjson
        } else if name.hasSuffix(".json") {
            self = .json
        } else {
            return nil
        }
    }
}
