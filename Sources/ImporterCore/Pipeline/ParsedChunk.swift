/// A record the parsing stage rejected, in its place among the chunk's records.
package struct ParseReject {
    /// Its number in the chunk; the key stage makes it the number in the input.
    package var ordinal: Int
    package let line: Int
    package let byteOffset: Int64
    package let raw: ArraySlice<UInt8>
    /// The hash key as far as it could be read.
    package let key: Value?
    package let rejection: Rejection
    /// Whether rejects.ndjson lists it: a document's records rejected with it are only counted
    /// (the document's line lists them).
    var listed = true
}

/// Consecutive records of one input, parsed, mapped and validated: those that passed and those
/// that did not, each in input order. Their `ordinal`s count from the chunk's first record.
package struct ParsedChunk {
    package var records: [PreparedRecord] = []
    package var rejects: [ParseReject] = []
    /// A chunk of a document source: per document, the chunk's `count` at its end.
    var documentEnds: [Int] = []
    /// A chunk of a document source: each record's JSON pointer in its document, for the
    /// problems of a document rejected whole (docs/documents.md).
    var pointers = PointerTable()
    /// A chunk of a document source: the records (by key) with no key at all for the arrays of
    /// some of their replaced children (bits of `SourceRecord.absentArrays`).
    var absentArrays: [(key: Value, children: UInt64)] = []
    /// Where the records go once written: back to the thread that made them, to be freed there
    /// (memory freed on another thread than the allocating one contends on malloc's locks).
    let handback: Handback<[PreparedRecord]>

    package init(capacity: Int, handback: Handback<[PreparedRecord]>) {
        records.reserveCapacity(capacity)
        self.handback = handback
    }

    /// The records read into the chunk.
    package var count: Int { records.count + rejects.count }

    /// Adds the rejection of `record`, numbered `ordinal` in the chunk.
    mutating func reject(_ record: SourceRecord, ordinal: Int, key: Value?, _ rejection: Rejection, listed: Bool = true)
    {
        rejects.append(
            ParseReject(
                ordinal: ordinal, line: record.line, byteOffset: record.byteOffset, raw: record.raw, key: key,
                rejection: rejection, listed: listed))
    }
}
