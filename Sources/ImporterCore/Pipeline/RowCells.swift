/// A CSV row as its reader's bytes, for a run's preparer to make its record of without making
/// a text of each field (`RecordPreparer.prepare(_:into:)`): valid only during the call that is
/// given it. The row is ASCII, has the header's fields, and no quote inside a quoted field.
package struct RowCells {
    /// The reader's bytes the spans point into (a quoted field's span holds what is inside
    /// the quotes).
    package let bytes: UnsafeBufferPointer<UInt8>
    /// One per field of the header, with the null markers found (`CellSpan.isNull`).
    package let spans: UnsafeBufferPointer<CellSpan>
    /// The header's names.
    package let names: [String]
    /// Where the row starts, on the line it starts on.
    package let line: Int
    package let byteOffset: Int64
    /// The row's text, for rejects.
    package let raw: ArraySlice<UInt8>

    package init(
        bytes: UnsafeBufferPointer<UInt8>, spans: UnsafeBufferPointer<CellSpan>, names: [String], line: Int,
        byteOffset: Int64, raw: ArraySlice<UInt8>
    ) {
        (self.bytes, self.spans, self.names) = (bytes, spans, names)
        (self.line, self.byteOffset, self.raw) = (line, byteOffset, raw)
    }

    /// The bytes of the field at `position`.
    @inline(__always)
    package func cell(_ position: Int) -> UnsafeBufferPointer<UInt8> {
        let span = spans[position]
        return UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])
    }
}
