/// The text of a prepared record as rejects.ndjson lists it: the record's own, or, for a record
/// of a large document that let its text go (docs/documents.md#large-documents), its bytes read
/// again where its input's `DocumentTexts` finds them.
enum RecordText {
    /// At most `limit` bytes of `record`'s text; empty when it can no longer be read.
    static func of(_ record: PreparedRecord, in inputs: [RunInput], limit: Int = .max) -> ArraySlice<UInt8> {
        guard let place = record.textInInput else {
            return limit < record.raw.count ? record.raw.prefix(limit) : record.raw
        }
        let count = min(Int64(limit), Int64(place.count))
        return inputs[record.inputIndex].documentTexts?.text(at: place.lowerBound..<place.lowerBound + count) ?? []
    }
}
