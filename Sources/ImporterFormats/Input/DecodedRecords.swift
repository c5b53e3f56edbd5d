import ImporterCore

/// The records of a reader over decoded text (`DecodingSource`), whose rejections for a byte
/// the encoding does not map say so: reason `encoding`, with what to do, instead of the
/// readers' "not valid UTF-8" (docs/pipeline.md#encodings).
enum DecodedRecords {
    /// `reader`, reading text decoded from `encoding`.
    static func wrap(_ reader: RecordReader, encoding: TextEncoding) -> RecordReader {
        if let partitioned = reader as? PartitionedRecordReader {
            return DecodedPartitionedReader(partitioned, encoding: encoding)
        }
        return DecodedReader(reader, encoding: encoding)
    }

    /// `record`, its failure restated when the decoder marked an unmapped byte in it (0xFF,
    /// which decoded text holds nowhere else; a JSON parser may have seen it as a syntax error).
    static func restated(_ record: SourceRecord, encoding: TextEncoding) -> SourceRecord {
        guard let failure = record.failure, failure.reason == .encoding || failure.reason == .malformed,
            record.raw.contains(DecodingSource.unmapped)
        else { return record }
        var restated = record
        restated.failure = Rejection(stage: failure.stage, reason: .encoding, field: failure.field, message(encoding))
        return restated
    }

    /// What is wrong and what to do, for a record with a byte `encoding` does not map.
    static func message(_ encoding: TextEncoding) -> String {
        switch encoding {
        case .windows1252:
            return
                "the record holds a byte that is not windows-1252 text (0x81, 0x8D, 0x8F, 0x90 or 0x9D, undefined there; U+FFFD in the raw text); fix that byte, or set the source's 'encoding:' to the file's real encoding"
        case .utf16, .utf16LE, .utf16BE:
            return
                "the record holds UTF-16 that is no character (a lone surrogate, or an odd byte at the end of the file; U+FFFD in the raw text); fix the file, or set the source's 'encoding:' to its real encoding"
        case .utf8, .iso88591:
            // ISO-8859-1 maps every byte; UTF-8 is never decoded.
            return "the record's text cannot be decoded as \(encoding.rawValue); fix the bytes or set 'encoding:'"
        }
    }
}

/// A reader's records, restated by `DecodedRecords`.
class DecodedReader: RecordReader {
    private let reader: RecordReader
    let encoding: TextEncoding

    init(_ reader: RecordReader, encoding: TextEncoding) {
        self.reader = reader
        self.encoding = encoding
    }

    var bytesRead: Int64 { reader.bytesRead }

    func next() throws -> SourceRecord? {
        try reader.next().map { DecodedRecords.restated($0, encoding: encoding) }
    }
}

/// A partitioned reader's records and parts' records, restated by `DecodedRecords`.
final class DecodedPartitionedReader: DecodedReader, PartitionedRecordReader {
    private let partitioned: PartitionedRecordReader

    init(_ reader: PartitionedRecordReader, encoding: TextEncoding) {
        partitioned = reader
        super.init(reader, encoding: encoding)
    }

    func nextPart(maximumRecords: Int, maximumBytes: Int) throws -> sending RecordReader? {
        guard let part = try partitioned.nextPart(maximumRecords: maximumRecords, maximumBytes: maximumBytes) else {
            return nil
        }
        return DecodedReader(part, encoding: encoding)
    }
}
