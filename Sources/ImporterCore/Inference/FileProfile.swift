/// One input file as one streaming pass saw it: its columns' profiles, how many records were
/// read and how many could not be (a malformed row, invalid UTF-8). Records come from the
/// file's `RecordReader`, as `importer run` reads them.
package struct FileProfile {
    /// The file as named on the command line.
    package let path: String
    package let format: InputFormat
    /// The CSV options the file was read with (CSV and TSV only); their `nullValues` are empty
    /// (markers are counted, then chosen).
    package let csv: CSVOptions?
    /// The text's encoding as sniffed from the file's first bytes (nil: UTF-8).
    package var encoding: TextEncoding?
    /// Whether the records were cut short by `--sample`.
    package var sampled = false
    /// About how many records the file holds: room for so many hashes is made at once.
    package var expectedRecords = 0
    package private(set) var records = 0
    package private(set) var failures = 0
    /// The first failure's line and message, for the model's comment.
    package private(set) var firstFailure: String?
    /// JSON documents: the arrays of objects in the records, each an entity of its own.
    package var children: [ChildProfile] = []
    /// JSON documents: the fields holding objects, read as the dotted names of their fields
    /// (`currency` for `currency.code`), whether or not any was kept.
    package var objectFields: [String] = []
    var columns: [ColumnProfile] = []
    private var columnIndex: [String: Int] = [:]
    /// The previous record's names and their columns (JSON records usually repeat them).
    private var lastNames: [String] = []
    private var lastColumns: [Int] = []
    private var seen: [Int] = []

    package init(path: String, format: InputFormat, csv: CSVOptions?) {
        self.path = path
        self.format = format
        self.csv = csv
    }

    /// Whether the column `name` is a path into nested objects (`currency.code`), which the
    /// pipeline reads with `map.fields`.
    package func isPath(_ name: String) -> Bool { !objectFields.isEmpty && name.contains(".") }

    /// Whether a field held a JSON object or array: the records may be documents.
    package var holdsComposites: Bool { columns.contains { $0.holdsComposite } }

    /// The names of the columns, in the order first seen.
    package var columnNames: [String] { columns.map(\.name) }

    /// Adds one record. `quotedCells` says which cells whose text is a null marker were quoted,
    /// so are values (CSV; found by reading the record again); it is asked only of a record
    /// that has such a cell.
    package mutating func observe(_ record: SourceRecord, quotedCells: (SourceRecord) -> Set<Int> = { _ in [] }) {
        if let failure = record.failure {
            failures += 1
            if firstFailure == nil { firstFailure = "line \(record.line): \(failure.message)" }
            return
        }
        let indices = columnIndices(for: record.names)
        let isCSV = csv != nil
        var quoted: Set<Int>?
        record.values.withUnsafeBufferPointer { values in
            for position in values.indices {
                var markers = isCSV
                if isCSV, case .text(let text) = values[position], NullMarkers.isMarker(text) {
                    if quoted == nil { quoted = quotedCells(record) }
                    markers = !quoted!.contains(position)
                }
                columns[indices[position]].observe(values[position], markers: markers)
            }
        }
        records += 1
        if format == .json || format == .ndjson || record.values.count < columns.count { fillMissing(indices) }
    }

    /// Adds the records `reader` reads (at most `limit`), as cells when it gives them
    /// (`CellRecordReader`); how many it read.
    package mutating func observeRecords(
        of reader: RecordReader, upTo limit: Int? = nil, quotedCells: (SourceRecord) -> Set<Int>
    ) throws -> Int {
        var count = 0
        let cells = reader as? CellRecordReader
        while limit.map({ count < $0 }) ?? true {
            if let cells {
                guard let read = try cells.nextCells({ observe($0) }) else { break }
                if case .record(let record) = read { observe(record, quotedCells: quotedCells) }
            } else {
                guard let record = try reader.next() else { break }
                observe(record, quotedCells: quotedCells)
            }
            count += 1
        }
        return count
    }

    /// Adds one CSV row given as cells (`CellRecordReader`): as `observe` of its record, a
    /// quoted cell a value whatever its text, without making the values.
    package mutating func observe(_ cells: RecordCells) {
        let indices = columnIndices(for: cells.names)
        var unescaped: [UInt8] = []
        // The columns taken once for the row, not once per cell.
        columns.withUnsafeMutableBufferPointer { columns in
            for position in cells.spans.indices {
                let span = cells.spans[position]
                let text = UnsafeBufferPointer(rebasing: cells.bytes[span.start..<span.end])
                guard span.doubledQuotes else {
                    columns[indices[position]].observe(bytes: text, markers: !span.quoted)
                    continue
                }
                // A quote written twice stands for one.
                unescaped.removeAll(keepingCapacity: true)
                var index = 0
                while index < text.count {
                    unescaped.append(text[index])
                    index += text[index] == cells.quote ? 2 : 1
                }
                unescaped.withUnsafeBufferPointer { columns[indices[position]].observe(bytes: $0, markers: false) }
            }
        }
        records += 1
        if cells.spans.count < columns.count { fillMissing(indices) }
    }

    /// The column of each of `names`, adding columns not seen before.
    private mutating func columnIndices(for names: [String]) -> [Int] {
        if names == lastNames { return lastColumns }
        var indices: [Int] = []
        indices.reserveCapacity(names.count)
        for name in names {
            if let index = columnIndex[name] {
                indices.append(index)
            } else {
                columnIndex[name] = columns.count
                indices.append(columns.count)
                var column = ColumnProfile(name: name, missingRecords: records)
                column.hashes.reserveCapacity(expectedRecords + expectedRecords / 16)
                columns.append(column)
                seen.append(records - 1)
            }
        }
        (lastNames, lastColumns) = (names, indices)
        return indices
    }

    /// A column first seen in a later part of the file.
    mutating func addColumn(_ column: ColumnProfile) {
        columnIndex[column.name] = columns.count
        columns.append(column)
        seen.append(records - 1)
        lastNames = []
    }

    /// The counts of the records of `next`, which follow.
    mutating func addCounts(of next: FileProfile) {
        records += next.records
        failures += next.failures
        if firstFailure == nil { firstFailure = next.firstFailure }
        lastNames = []
    }

    /// Columns a JSON record lacks are null in it.
    private mutating func fillMissing(_ indices: [Int]) {
        let record = records - 1
        for index in indices { seen[index] = record }
        for index in columns.indices where seen[index] != record {
            columns[index].observeNull()
            seen[index] = record
        }
    }
}
