import ImporterCore

/// Opens the reader for one input file of a pipeline source.
public enum ReaderFactory {
    public static func makeReader(source: SourceConfig, path: String) throws -> RecordReader {
        switch source.format ?? InputFormat(path: path) ?? .csv {
        case .csv, .tsv: return try CSVReader(path: path, options: source.csv)
        case .ndjson: return try NDJSONReader(path: path)
        case .json: return try JSONArrayReader(path: path)
        }
    }
}
