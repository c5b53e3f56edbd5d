import Foundation
import ImporterCore

/// Guesses how a file is written from its first `sampleBytes`, as DuckDB's sniffer does: the
/// format (named, else from the file name, else from the first character), and for CSV the
/// delimiter (`,` `;` tab `|`: the one that splits the sample into the most fields with the
/// fewest malformed rows, read by `CSVReader` itself) and whether the first row is a header.
enum FormatSniffer {
    static let sampleBytes = 64 << 10
    /// Rows of the sample read per delimiter.
    static let sampleRows = 200

    /// The format and CSV options to read `path` with (CSV options with no null values: the
    /// markers are counted, then chosen). Throws a `ConfigurationError` naming the file.
    static func sniff(path: String, format named: InputFormat?) throws -> (InputFormat, CSVOptions?) {
        let sniffed = try sniffWithEstimate(path: path, format: named)
        return (sniffed.format, sniffed.csv)
    }

    /// `sniff`, the text's encoding (nil: UTF-8; `EncodingSniffer`), and about how many records
    /// the file holds (its size over the sample's bytes per line; a plain file's size, so a .gz
    /// file's count is low). The format and dialect are sniffed from the text decoded.
    static func sniffWithEstimate(path: String, format named: InputFormat?) throws -> (
        format: InputFormat, csv: CSVOptions?, encoding: TextEncoding?, estimate: Int
    ) {
        let (raw, complete) = try prefix(of: path)
        let encoding = EncodingSniffer.encoding(of: raw, complete: complete)
        let sample = EncodingSniffer.decoded(raw, from: encoding)
        let text = sample.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(sample.dropFirst(3)) : sample
        guard let first = text.first(where: { ![32, 9, 10, 13].contains($0) }) else {
            throw ConfigurationError(
                file: path,
                complete
                    ? "the file is empty (or blank); there is nothing to infer from"
                    : "the file starts with \(sampleBytes) bytes of blanks; is it the right file?")
        }
        let format: InputFormat
        if let given = named ?? InputFormat(path: path) {
            format = given
        } else if first == UInt8(ascii: "[") {
            format = .json
        } else if first == UInt8(ascii: "{") {
            format = .ndjson
        } else if text.contains(0) {
            throw ConfigurationError(
                file: path,
                "the format is unknown and the file is not text (it holds NUL bytes); name it with --format csv|tsv|ndjson|json, or check the file"
            )
        } else {
            format = .csv
        }
        let estimate = estimatedRecords(path: path, sample: raw, complete: complete)
        guard format == .csv || format == .tsv else { return (format, nil, encoding, estimate) }
        guard !text.contains(0) else {
            throw ConfigurationError(
                file: path,
                "is read as \(format.rawValue) but holds NUL bytes (binary, or UTF-16?); convert it to UTF-8 text or pass --format"
            )
        }
        let csv = dialect(of: complete ? sample : wholeLines(sample), path: path, tab: format == .tsv)
        return (format, csv, encoding, estimate)
    }

    private static func estimatedRecords(path: String, sample: [UInt8], complete: Bool) -> Int {
        let lines = max(1, sample.reduce(0) { $0 + ($1 == 10 ? 1 : 0) })
        guard !complete, let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
            return lines
        }
        return min(size / max(1, sample.count / lines) + 1, 1 << 26)
    }

    /// Up to `sampleBytes` of the (decompressed) file, and whether that is all of it.
    private static func prefix(of path: String) throws -> ([UInt8], Bool) {
        do {
            let source = try openByteSource(path)
            defer { source.close() }
            var bytes = [UInt8](repeating: 0, count: sampleBytes)
            var count = 0
            while count < sampleBytes {
                let read = try bytes.withUnsafeMutableBytes {
                    try source.read(into: $0.baseAddress! + count, count: sampleBytes - count)
                }
                if read == 0 { return (Array(bytes[..<count]), true) }
                count += read
            }
            return (bytes, false)
        } catch let error as InputError {
            throw ConfigurationError(file: path, "cannot be read: \(error.message); check the path and its permissions")
        }
    }

    /// The sample up to its last line feed (a record cut in two would be malformed).
    private static func wholeLines(_ sample: [UInt8]) -> [UInt8] {
        guard let last = sample.lastIndex(of: 10) else { return sample }
        return Array(sample[...last])
    }

    private static func dialect(of sample: [UInt8], path: String, tab: Bool) -> CSVOptions {
        let delimiters: [UInt8] = tab ? [9, 44, 59, 124] : [44, 59, 9, 124]
        var best: (delimiter: UInt8, fields: Int, bad: Int)?
        for delimiter in delimiters {
            let (fields, bad) = score(sample, delimiter: delimiter, path: path)
            guard fields >= 2 else { continue }
            if best.map({ bad < $0.bad || (bad == $0.bad && fields > $0.fields) }) ?? true {
                best = (delimiter, fields, bad)
            }
        }
        var options = CSVOptions()
        options.delimiter = best?.delimiter ?? delimiters[0]
        options.nullValues = []
        let reader = CSVReader(source: BytesSource(sample), name: path, options: options, repeatedColumns: true)
        var names: [String]?
        for _ in 0..<sampleRows {
            guard let record = try? reader.next() else { break }
            if record.failure == nil {
                names = record.names
                break
            }
        }
        guard let names else { return options }
        if !HeaderGuess.isHeader(names.map { .text($0) }) {
            options.header = false
            options.columns = HeaderGuess.numberedColumns(names.count)
        } else {
            options.columns = HeaderGuess.columnNames(forHeader: names)
        }
        return options
    }

    /// Header fields and malformed rows when the sample is split at `delimiter`.
    private static func score(_ sample: [UInt8], delimiter: UInt8, path: String) -> (fields: Int, bad: Int) {
        var options = CSVOptions()
        options.delimiter = delimiter
        options.nullValues = []
        let reader = CSVReader(source: BytesSource(sample), name: path, options: options, repeatedColumns: true)
        var fields = 0, bad = 0
        for _ in 0..<sampleRows {
            guard let record = try? reader.next() else { break }
            if record.failure != nil { bad += 1 } else { fields = record.names.count }
        }
        return (fields, bad)
    }
}
