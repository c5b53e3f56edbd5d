/// What the read stage hands the key stage, in input order (numbered for a `Sequencer`).
enum ParsedItem: Sendable {
    /// Consecutive records of an input, mapped and validated.
    case chunk(input: Int, ParsedChunk)
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
