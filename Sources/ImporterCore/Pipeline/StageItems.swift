/// What the read stage hands the key stage, in input order (numbered for a `Sequencer`).
enum ParsedItem: Sendable {
    /// Consecutive records of an input, mapped and validated.
    case chunk(input: Int, ParsedChunk)
    /// Consecutive whole documents of the document source whose root input is `root`
    /// (docs/documents.md).
    case documents(root: Int, DocumentBatch)
    /// The input was read to its end: `bytes` read from disk.
    case inputDone(input: Int, bytes: Int64)
    case end
}

/// What the key stage hands the write stage, in input order.
enum CheckedItem: Sendable {
    /// Records that passed every check so far, and the records of the same stretch of the
    /// input that were rejected (counted already), for rejects.ndjson in input order. The
    /// records go back to `handback` once written, to be freed by the thread that made them.
    case records(input: Int, [PreparedRecord], rejected: [RejectedRecord], handback: Handback<[PreparedRecord]>)
    /// Whole documents of a document source, so that no commit falls inside a document.
    case documents(CheckedDocuments)
    case inputDone(input: Int, bytes: Int64)
    case end
}

/// A rejected record as rejects.ndjson lists it, with its number in its input (for the order).
struct RejectedRecord: Sendable {
    let ordinal: Int
    let line: Int
    let offset: Int64
    let key: Value?
    let raw: ArraySlice<UInt8>
    let rejection: Rejection
    /// Whether rejects.ndjson lists it (see `ParseReject.listed`).
    var listed = true
}

/// Consecutive whole documents of a document source past the key checks: each a group whose
/// prepared members are to be written (the others are `settled`, counted already), with the
/// rejections of the same stretch of each input of the source.
struct CheckedDocuments: Sendable {
    /// The run's input of the source's root; node `n`'s is `root + n`.
    let root: Int
    var groups: [RecordGroup]
    /// Per node, its input's rejections, for rejects.ndjson once the documents are written.
    let rejected: [[RejectedRecord]]
    /// What a record rejected while writing costs its document.
    let policy: DocumentPolicy
    /// Where the records go once written, to be freed by the thread that made them.
    let handback: Handback<[PreparedRecord]>

    /// The nodes of the source's shape.
    var nodes: Range<Int> { rejected.indices }
}
