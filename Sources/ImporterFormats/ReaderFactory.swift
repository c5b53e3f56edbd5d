import ImporterCore

/// Opens the reader for one input of a pipeline source: its bytes (decompressed, and decoded to
/// UTF-8 when the source's `encoding:` or a UTF-16 byte order mark says so; docs/pipeline.md#encodings),
/// read by the reader of its format.
package enum ReaderFactory {
    package static func makeReader(source: SourceConfig, path: String) throws -> RecordReader {
        let format = source.format ?? InputFormat(path: path) ?? .csv
        if format == .dynamodbExport {
            return NDJSONReader(
                source: try ExportDataInput.open(try FileSource(path: path), name: path), layout: .dynamoDBItem,
                maxRecordBytes: source.maxRecordBytes)
        }
        return try makeReader(format: format, text: openByteSource(path), name: path, source: source)
    }

    /// The reader of one input of `source` whose bytes come from elsewhere (an S3 object):
    /// `name` (its URL) gives the format when the source does not, and `.gz` decompression.
    package static func makeReader(source: SourceConfig, bytes: ByteSource, name: String) throws -> RecordReader {
        if source.format == .dynamodbExport {
            return NDJSONReader(
                source: try ExportDataInput.open(bytes, name: name), layout: .dynamoDBItem,
                maxRecordBytes: source.maxRecordBytes)
        }
        let input = name.lowercased().hasSuffix(".gz") ? try GzipSource(source: bytes, name: name) : bytes
        return try makeReader(
            format: source.format ?? InputFormat(path: name) ?? .csv, text: input, name: name, source: source)
    }

    /// The bytes of a local input of `source` as UTF-8 text (decompressed and decoded): what
    /// its reader parses.
    package static func openText(path: String, source: SourceConfig) throws -> ByteSource {
        try TextInput.open(openByteSource(path), encoding: source.encoding, name: path).bytes
    }

    /// The reader of `format` over `text` in `source`'s encoding.
    private static func makeReader(format: InputFormat, text: ByteSource, name: String, source: SourceConfig) throws
        -> RecordReader
    {
        let (input, decoded) = try TextInput.open(text, encoding: source.encoding, name: name)
        if source.readsDocuments { return makeDocumentReader(source: source, bytes: input, name: name) }
        let reader = makeReader(
            format: format, source: input, name: name, csv: source.csv, maxRecordBytes: source.maxRecordBytes)
        return decoded.map { DecodedRecords.wrap(reader, encoding: $0) } ?? reader
    }

    /// A reader of `format` over bytes that are not a file of their own (an archive entry);
    /// `name` stands for them in messages. The bytes are UTF-8.
    package static func makeReader(
        format: InputFormat, source: ByteSource, name: String, csv: CSVOptions,
        maxRecordBytes: Int = SourceConfig.defaultMaxRecordBytes
    ) -> RecordReader {
        switch format {
        case .csv, .tsv: return CSVReader(source: source, name: name, options: csv, maxRecordBytes: maxRecordBytes)
        case .ndjson: return NDJSONReader(source: source, maxRecordBytes: maxRecordBytes)
        case .dynamodbJSON, .dynamodbExport:
            return NDJSONReader(source: source, layout: .dynamoDBItem, maxRecordBytes: maxRecordBytes)
        case .json: return JSONArrayReader(source: source, maxRecordBytes: maxRecordBytes)
        }
    }

    /// The reader of a source's documents (docs/documents.md): a JSON array's elements or
    /// NDJSON's lines, each with the records of its arrays.
    private static func makeDocumentReader(source: SourceConfig, bytes: ByteSource, name: String) -> RecordReader {
        let texts: PartitionedRecordReader =
            if (source.format ?? InputFormat(path: name)) == .ndjson {
                NDJSONReader(source: bytes, layout: .document, maxRecordBytes: source.maxRecordBytes)
            } else {
                JSONArrayReader(source: bytes, layout: .document, maxRecordBytes: source.maxRecordBytes)
            }
        return PartitionedDocuments(texts: texts, shape: DocumentShape(source), readsFileAsItIs: bytes is FileSource)
    }
}
