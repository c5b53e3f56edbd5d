import Foundation

/// The text of a prepared record as rejects.ndjson lists it: the record's own, or, for a record
/// of a large document that let its text go (docs/documents.md#large-documents), its bytes read
/// again from the temporary file that kept its document, or else from its input, a local file
/// read as it is.
enum RecordText {
    /// At most `limit` bytes of `record`'s text; empty when its input can no longer be read.
    static func of(_ record: PreparedRecord, in inputs: [RunInput], limit: Int = .max) -> ArraySlice<UInt8> {
        guard let place = record.textInInput else {
            return limit < record.raw.count ? record.raw.prefix(limit) : record.raw
        }
        let count = Int(min(Int64(limit), Int64(place.count)))
        let input = inputs[record.inputIndex]
        if let kept = input.textFile?.text(at: place.lowerBound..<place.lowerBound + Int64(count)) { return kept }
        guard let handle = FileHandle(forReadingAtPath: input.path) else { return [] }
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: UInt64(place.lowerBound))
            return ArraySlice(try handle.read(upToCount: count) ?? Data())
        } catch {
            return []
        }
    }
}
