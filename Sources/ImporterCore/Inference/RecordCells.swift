/// Where one field of a CSV row lies in its reader's bytes, and how it was written.
package struct CellSpan: Sendable {
    package var start: Int
    package var end: Int
    package var quoted: Bool
    /// Quoted, with a quote inside written twice (`""`).
    package var doubledQuotes: Bool
    /// Unquoted and one of the source's null markers; set only for rows given to a run's
    /// preparer (`RowCells`).
    package var isNull = false

    @inlinable @inline(__always)
    package init(start: Int, end: Int, quoted: Bool, doubledQuotes: Bool) {
        (self.start, self.end, self.quoted, self.doubledQuotes) = (start, end, quoted, doubledQuotes)
    }
}

/// A row's fields as its reader's bytes, for `model infer` to profile without making a value
/// of each (docs/infer.md): valid only during the call that is given them.
package struct RecordCells {
    /// The reader's bytes the spans point into.
    package let bytes: UnsafeBufferPointer<UInt8>
    /// One per field, as many as the header names; the row's bytes are ASCII.
    package let spans: UnsafeBufferPointer<CellSpan>
    /// The header's names.
    package let names: [String]
    /// The quote character (a doubled one inside a quoted field stands for one).
    package let quote: UInt8

    package init(bytes: UnsafeBufferPointer<UInt8>, spans: UnsafeBufferPointer<CellSpan>, names: [String], quote: UInt8)
    {
        (self.bytes, self.spans, self.names, self.quote) = (bytes, spans, names, quote)
    }
}

/// What a `CellRecordReader` read.
package enum CellRead {
    /// A row given as cells.
    case cells
    /// A record as `next()` gives it (one that failed, or is not given as cells).
    case record(SourceRecord)
}

/// A reader that can give its rows as cells (CSV).
package protocol CellRecordReader: RecordReader {
    /// Reads the next row: gives it to `observe` as cells, or returns it as a record; nil at
    /// the end. The rows and failures are those `next()` gives.
    func nextCells(_ observe: (RecordCells) -> Void) throws -> CellRead?

    /// Reads the next row: offers it to `take` as cells when it has the header's fields, is
    /// ASCII and has no doubled quote, and returns `.cells` if `take` took it; any other row,
    /// and every failure, comes back as the record `next()` gives. Nil at the end.
    func nextRow(_ take: (RowCells) -> Bool) throws -> CellRead?
}
