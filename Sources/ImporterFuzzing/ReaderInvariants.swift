import ImporterCore

/// What every reader owes any input: it ends; each record's line and offset move forward and
/// lie inside the input, its raw text is the input's bytes at that offset (or their first bytes);
/// and the input cut into parts gives exactly the records read whole.
enum ReaderInvariants {
    static func check(_ bytes: [UInt8], _ makeReader: () -> RecordReader) throws {
        let whole = try records(of: makeReader(), limit: bytes.count + 2)
        var lastLine = 0, lastOffset: Int64 = -1
        for record in whole {
            guard record.line >= max(lastLine, 1), record.byteOffset > lastOffset,
                record.byteOffset <= Int64(bytes.count)
            else {
                throw FuzzViolation(
                    description:
                        "record at line \(record.line), offset \(record.byteOffset) after line \(lastLine), offset \(lastOffset)"
                )
            }
            let start = Int(record.byteOffset)
            guard start + record.raw.count <= bytes.count,
                bytes[start..<start + record.raw.count].elementsEqual(record.raw)
            else {
                throw FuzzViolation(
                    description: "raw text of line \(record.line) is not the input's bytes at offset \(start)")
            }
            guard record.failure == nil || record.values.isEmpty else {
                throw FuzzViolation(description: "a rejected record at line \(record.line) has values")
            }
            (lastLine, lastOffset) = (record.line, record.byteOffset)
        }
        guard let splitter = makeReader() as? PartitionedRecordReader else { return }
        for maximum in [1, 3] {
            let splitter = maximum == 1 ? splitter : makeReader() as! PartitionedRecordReader
            var parts: [SourceRecord] = []
            while let part = try splitter.nextPart(maximumRecords: maximum) {
                parts += try records(of: part, limit: bytes.count + 2)
                guard parts.count <= whole.count + 1 else { break }
            }
            guard parts.map(signature) == whole.map(signature) else {
                throw FuzzViolation(
                    description: "parts of \(maximum) records give \(parts.count) records, whole reading \(whole.count)"
                )
            }
        }
    }

    /// Every record of `reader`; more than `limit` means it does not end.
    private static func records(of reader: RecordReader, limit: Int) throws -> [SourceRecord] {
        var records: [SourceRecord] = []
        while let record = try reader.next() {
            records.append(record)
            guard records.count <= limit else {
                throw FuzzViolation(description: "more than \(limit) records from \(limit - 2) bytes")
            }
        }
        return records
    }

    private static func signature(_ record: SourceRecord) -> String {
        "\(record.line) \(record.byteOffset) \(Array(record.raw)) \(record.names) \(record.values) \(record.failure?.message ?? "")"
    }
}
