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
    /// Whole documents of a document source: what passed of each of its inputs, and where each
    /// document ends in them, so that no commit falls inside a document.
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

/// The records of consecutive whole documents that passed the key checks, one part per input
/// of their source (the root's first), each in input order.
struct CheckedDocuments: Sendable {
    struct Part: Sendable {
        let input: Int
        var records: [PreparedRecord]
        /// Each record's JSON pointer in its document.
        var pointers: PointerTable
        /// The part's rejections, for rejects.ndjson once the part is written.
        var rejected: [RejectedRecord]
        /// Per document, the number of `records` up to its end.
        var documentEnds: [Int]
        let handback: Handback<[PreparedRecord]>
    }

    var parts: [Part]
    /// What a record rejected while writing costs its document.
    let policy: DocumentPolicy

    var documentCount: Int { parts[0].documentEnds.count }

    /// The records of document `document`, in every part.
    func recordCount(of document: Int) -> Int {
        parts.reduce(0) { $0 + $1.documentEnds[document] - (document == 0 ? 0 : $1.documentEnds[document - 1]) }
    }

    /// The document of the record at `position` in part `part`.
    func document(at position: Int, in part: Int) -> Int {
        let ends = parts[part].documentEnds
        var low = 0, high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > position { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Where the records of documents `documents` are in part `part`.
    func positions(of documents: Range<Int>, in part: Int) -> Range<Int> {
        let ends = parts[part].documentEnds
        let start = documents.lowerBound == 0 ? 0 : ends[documents.lowerBound - 1]
        return start..<(documents.isEmpty ? start : ends[documents.upperBound - 1])
    }
}
