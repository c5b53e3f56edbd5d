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

    /// The rejection of `record`, numbered `ordinal`.
    init(_ record: SourceRecord, ordinal: Int, key: Value?, _ rejection: Rejection, listed: Bool = true) {
        self.ordinal = ordinal
        (line, byteOffset, raw) = (record.line, record.byteOffset, record.raw)
        self.key = key
        self.rejection = rejection
        self.listed = listed
    }
}

/// Consecutive records of one input, parsed, mapped and validated: those that passed and those
/// that did not, each in input order (a document source's come as a `DocumentBatch`). Their `ordinal`s count from the chunk's first record.
package struct ParsedChunk {
    package var records: [PreparedRecord] = []
    package var rejects: [ParseReject] = []
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
    mutating func reject(_ record: SourceRecord, ordinal: Int, key: Value?, _ rejection: Rejection) {
        rejects.append(ParseReject(record, ordinal: ordinal, key: key, rejection))
    }
}
