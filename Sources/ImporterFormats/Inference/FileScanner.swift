import ImporterCore

/// Profiles input files for `importer model infer`: sniffs each file's format, then reads it
/// once, streaming, with the reader `importer run` uses (`ReaderFactory`), into a
/// `FileProfile`: on the calling thread, or cut into parts that two threads profile when the
/// cores are idle (`PartProfiler`). Memory holds the reader's window (and a few parts) and, per
/// column, one 64-bit hash per record (for key detection); `sample` stops after that many
/// records.
package enum FileScanner {
    /// The profile of `path`, read as `format` (nil: sniffed). `parallel`: cut into parts for
    /// two threads (nil: when the cores are idle; never with `sample`). Throws a
    /// `ConfigurationError` that names the file and says what to do when it cannot be read.
    package static func profile(path: String, format: InputFormat? = nil, sample: Int? = nil, parallel: Bool? = nil)
        throws -> FileProfile
    {
        let (format, csv, encoding, estimate) = try FormatSniffer.sniffWithEstimate(path: path, format: format)
        var source = SourceConfig(entity: "", pattern: path, paths: [path], format: format, csv: csv ?? CSVOptions())
        source.encoding = encoding
        let quoted: @Sendable (SourceRecord) -> Set<Int> = { record in
            csv.map { quotedMarkers(in: record, options: $0, path: path) } ?? []
        }
        var profile = FileProfile(path: path, format: format, csv: csv)
        profile.encoding = encoding
        profile.expectedRecords = min(estimate, sample ?? estimate)
        var count = 0
        let parallel = sample == nil && (parallel ?? PartProfiler.coresAreIdle())
        do {
            let makeReader = { try ReaderFactory.makeReader(source: source, path: path) }
            // JSON whose first records hold objects or arrays: read as documents at once.
            if csv == nil, try holdsComposites(makeReader()),
                let documents = try DocumentProfiler.profile(
                    root: profile, sample: sample, parallel: parallel, makeReader: makeReader)
            {
                return documents
            }
            let reader = try makeReader()
            if parallel, let partitioned = reader as? PartitionedRecordReader {
                profile = try PartProfiler.profile(partitioned, into: profile, quotedCells: quoted)
                profile.encoding = encoding
            } else {
                count = try profile.observeRecords(of: reader, upTo: sample, quotedCells: quoted)
                profile.sampled = sample.map { count >= $0 } ?? false
            }
            guard csv == nil, profile.holdsComposites else { return profile }
            // Objects or arrays in later JSON records: read again as documents.
            return try DocumentProfiler.profile(
                root: profile, sample: sample, parallel: parallel, makeReader: makeReader) ?? profile
        } catch let error as InputError {
            throw ConfigurationError(file: path, "cannot be read: \(error.message); check the file")
        }
    }

    /// Whether one of the first 1,000 records holds a JSON object or array.
    private static func holdsComposites(_ reader: RecordReader) throws -> Bool {
        for _ in 0..<1000 {
            guard let record = try reader.next() else { return false }
            if record.values.contains(where: { if case .composite = $0 { true } else { false } }) { return true }
        }
        return false
    }

    /// Cells whose text is a null marker but that were quoted, so are values: read again
    /// (rarely: only a record holding a quoted marker's text) with the markers as null values.
    static func quotedMarkers(in record: SourceRecord, options: CSVOptions, path: String) -> Set<Int> {
        guard record.failure == nil else { return [] }
        let markerCells = record.values.indices.filter { index in
            if case .text(let text) = record.values[index] { return NullMarkers.isMarker(text) }
            return false
        }
        guard !markerCells.isEmpty, record.raw.contains(options.quote) else { return [] }
        let quoted = Set(
            markerCells.compactMap { index -> [UInt8]? in
                guard case .text(let text) = record.values[index] else { return nil }
                return [options.quote] + Array(text.utf8) + [options.quote]
            })
        guard quoted.contains(where: { record.raw.firstRange(of: $0) != nil }) else { return [] }
        var again = options
        again.header = false
        again.columns = record.names
        again.nullValues = NullMarkers.all
        guard let reread = try? CSVReader(source: BytesSource(Array(record.raw)), name: path, options: again).next(),
            reread.failure == nil, reread.values.count == record.values.count
        else { return [] }
        return Set(markerCells.filter { reread.values[$0] != .null })
    }
}
