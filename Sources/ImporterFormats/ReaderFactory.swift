import ImporterCore

/// Opens the reader for one input of a pipeline source.
package enum ReaderFactory {
    package static func makeReader(source: SourceConfig, path: String) throws -> RecordReader {
        if source.readsDocuments {
            return makeDocumentReader(source: source, bytes: try openByteSource(path), name: path)
        }
        switch source.format ?? InputFormat(path: path) ?? .csv {
        case .csv, .tsv: return try CSVReader(path: path, options: source.csv, maxRecordBytes: source.maxRecordBytes)
        case .ndjson: return try NDJSONReader(path: path, maxRecordBytes: source.maxRecordBytes)
        case .dynamodbJSON:
            return try NDJSONReader(path: path, layout: .dynamoDBItem, maxRecordBytes: source.maxRecordBytes)
        case .dynamodbExport:
            return NDJSONReader(
                source: try ExportDataInput.open(try FileSource(path: path), name: path), layout: .dynamoDBItem,
                maxRecordBytes: source.maxRecordBytes)
        case .json: return try JSONArrayReader(path: path, maxRecordBytes: source.maxRecordBytes)
        }
    }

    /// The reader of one input of `source` whose bytes come from elsewhere (an S3 object):
    /// `name` (its URL) gives the format when the source does not, and `.gz` decompression.
    package static func makeReader(source: SourceConfig, bytes: ByteSource, name: String) throws -> RecordReader {
        let input =
            source.format == .dynamodbExport
            ? try ExportDataInput.open(bytes, name: name)
            : name.lowercased().hasSuffix(".gz") ? try GzipSource(source: bytes, name: name) : bytes
        if source.readsDocuments { return makeDocumentReader(source: source, bytes: input, name: name) }
        return makeReader(
            format: source.format ?? InputFormat(path: name) ?? .csv, source: input, name: name, csv: source.csv,
            maxRecordBytes: source.maxRecordBytes)
    }

    /// A reader of `format` over bytes that are not a file of their own (an archive entry);
    /// `name` stands for them in messages.
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
        if (source.format ?? InputFormat(path: name)) == .ndjson {
            return PartitionedDocumentLines(
                lines: NDJSONReader(source: bytes, layout: .document, maxRecordBytes: source.maxRecordBytes),
                shape: DocumentShape(source))
        }
        return DocumentReader(
            base: JSONArrayReader(source: bytes, layout: .document, maxRecordBytes: source.maxRecordBytes),
            shape: DocumentShape(source))
    }
}
