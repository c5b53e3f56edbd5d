import Foundation
import ImporterCore

/// A streaming RFC 4180 reader over bytes: quoted fields with delimiters, doubled quotes and
/// line breaks; CRLF or LF line ends; a UTF-8 BOM; a header row; null values.
///
/// A malformed row (wrong field count, text after a closing quote, an unterminated quote) comes
/// back as a record with `failure` set, and reading goes on: after an unterminated quote it
/// resumes on the line after the one where that record began. A file that cannot be read as
/// rows at all — UTF-16 text without a byte order mark (or `encoding:`), a header naming a
/// column twice — is one such record for the whole file, and none of its rows are read
/// (docs/pipeline.md#sources).
///
/// A large input can also be cut into parts (`nextPart`) that other threads parse.
package final class CSVReader: PartitionedRecordReader, CellRecordReader {
    private var input: ChunkedInput
    private let options: CSVOptions
    private let path: String
    private let maxRecordBytes: Int
    private var names: [String] = []
    /// The line at `input.position`.
    private var line = 1
    /// Start and end (exclusive) of each field of the record being parsed, and its flags.
    private var fields: [CellSpan] = []
    private let nullValues: [[UInt8]]
    /// The null markers' lengths: a cell of another length is no null marker, known without
    /// comparing it to them.
    private let nullLengths: ByteLengths
    private var started = false
    /// The failed header row, returned before any other record (a part's: of the input it
    /// was cut from).
    private var leading: SourceRecord?
    /// The column the header names twice, its line and the two fields (from 1), if it does.
    private var duplicateColumn: (name: String, line: Int, first: Int, second: Int)?
    /// A header may name a column twice (the last value wins): `model infer`'s sniffer, which
    /// numbers such names apart (docs/infer.md).
    private let repeatedColumns: Bool

    private enum Scan {
        /// A whole record: it ends before `end`; the next one starts at `next`.
        case record(end: Int, next: Int, newlines: Int)
        /// Text after a closing quote: the bad line ends at `end`.
        case textAfterQuote(end: Int, next: Int, newlines: Int)
        /// The window ends inside the record.
        case needMore
    }

    package convenience init(
        path: String, options: CSVOptions, maxRecordBytes: Int = SourceConfig.defaultMaxRecordBytes
    ) throws {
        try self.init(source: openByteSource(path), name: path, options: options, maxRecordBytes: maxRecordBytes)
    }

    /// Reads `source`; `name` stands for it in messages.
    package convenience init(
        source: ByteSource, name: String, options: CSVOptions, maxRecordBytes: Int = SourceConfig.defaultMaxRecordBytes
    ) {
        self.init(source: source, name: name, options: options, maxRecordBytes: maxRecordBytes, repeatedColumns: false)
    }

    /// Reads `source`, with `repeatedColumns` for the sniffer of `model infer`.
    init(
        source: ByteSource, name: String, options: CSVOptions, maxRecordBytes: Int = SourceConfig.defaultMaxRecordBytes,
        repeatedColumns: Bool
    ) {
        self.repeatedColumns = repeatedColumns
        self.path = name
        self.options = options
        self.maxRecordBytes = maxRecordBytes
        self.input = ChunkedInput(source: source)
        self.nullValues = options.nullValues.map { Array($0.utf8) }
        nullLengths = ByteLengths(self.nullValues.map(\.count))
    }

    /// A reader of whole records cut from an input: `bytes` start at `offset` and on `line` of
    /// it, after its header (`names`).
    private init(
        part bytes: [UInt8], offset: Int64, line: Int, names: [String], leading: SourceRecord?, path: String,
        options: CSVOptions, nullValues: [[UInt8]], maxRecordBytes: Int
    ) {
        // Arrays of its own: the thread reading the part retains them for every record or field.
        self.path = path
        self.options = options
        self.maxRecordBytes = maxRecordBytes
        repeatedColumns = true  // the names are the input's, checked when it was opened
        self.nullValues = nullValues.map { $0.map { $0 } }
        nullLengths = ByteLengths(self.nullValues.map(\.count))
        input = ChunkedInput(bytes: bytes, offset: offset)
        self.line = line
        self.names = names.map { $0 }
        self.leading = leading
        started = true
    }

    package var bytesRead: Int64 { input.bytesConsumed }

    package func next() throws -> SourceRecord? {
        if !started {
            started = true
            leading = try readHeader()
        }
        if let record = leading {
            leading = nil
            return record
        }
        while true {
            guard let record = try nextRecord() else { return nil }
            if let record = counted(record) { return record }
        }
    }

    /// The next row as cells when it has the header's fields and is ASCII (then no field's
    /// value is made), else as `next()` gives it (docs/infer.md).
    package func nextCells(_ observe: (RecordCells) -> Void) throws -> CellRead? {
        try nextOffered { buffer, start, end, _ in
            guard fields.count == names.count, nullValues.isEmpty,
                UTF8Text.isASCII(UnsafeBufferPointer(rebasing: buffer[start..<end]))
            else { return false }
            fields.withUnsafeBufferPointer { spans in
                observe(RecordCells(bytes: buffer, spans: spans, names: names, quote: options.quote))
            }
            return true
        }
    }

    package func nextRow(_ take: (RowCells) -> Bool) throws -> CellRead? {
        try nextOffered { buffer, start, end, line in
            guard fields.count == names.count, UTF8Text.isASCII(UnsafeBufferPointer(rebasing: buffer[start..<end])),
                markNulls(buffer)
            else { return false }
            return fields.withUnsafeBufferPointer { spans in
                take(
                    RowCells(
                        bytes: buffer, spans: spans, names: names, line: line, byteOffset: input.offset(of: start),
                        raw: input.bytes[start..<end]))
            }
        }
    }

    /// The next row, offered as the window's bytes, its start, end and line to `offer`, which
    /// returns whether it took it (then `.cells`); a row not taken, and every failure, comes
    /// back as the record `next()` gives. Nil at the end.
    private func nextOffered(_ offer: (UnsafeBufferPointer<UInt8>, Int, Int, Int) -> Bool) throws -> CellRead? {
        if !started {
            started = true
            leading = try readHeader()
        }
        if let record = leading {
            leading = nil
            return .record(record)
        }
        while true {
            switch try nextScanned() {
            case nil: return nil
            case .failed(let record): return .record(record)
            case .record(let start, let end, _) where end == start && fields.count == 1:
                continue  // a blank line
            case .record(let start, let end, let line):
                if input.bytes.withUnsafeBufferPointer({ offer($0, start, end, line) }) { return .cells }
                if let record = counted(makeRecord(start: start, end: end, line: line)) { return .record(record) }
            }
        }
    }

    /// Marks the row's null markers in `fields`, as `makeRecord` finds them; false for a row
    /// with a doubled quote, which is not given as cells.
    private func markNulls(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        // Marked in a local: each access to the property would check exclusive access.
        var spans: [CellSpan] = []
        swap(&spans, &fields)
        defer { swap(&spans, &fields) }
        return spans.withUnsafeMutableBufferPointer { spans in
            for index in spans.indices {
                let span = spans[index]
                if span.doubledQuotes { return false }
                spans[index].isNull =
                    !span.quoted && isNull(UnsafeBufferPointer(rebasing: buffer[span.start..<span.end]))
            }
            return true
        }
    }

    /// `record` as `next()` gives it: nil for a blank line, a failure for a row whose fields
    /// are not the header's.
    private func counted(_ record: SourceRecord) -> SourceRecord? {
        if case .some = record.failure { return record }
        if record.values.count == 1, record.raw.isEmpty { return nil }  // blank line
        guard record.values.count == names.count else {
            var bad = record
            bad.failure = Rejection(
                stage: .read, reason: .malformed,
                "the row has \(record.values.count) fields but the header has \(names.count); check for an unquoted delimiter or a missing field"
            )
            bad.values = []
            return bad
        }
        return record
    }

    /// Finds where the next `maximumRecords` records (or `maximumBytes`) end, the way
    /// `nextRecord` does but without making them, and hands their bytes to a reader of their own.
    package func nextPart(maximumRecords: Int, maximumBytes: Int) throws -> sending RecordReader? {
        if !started {
            started = true
            leading = try readHeader()
        }
        let headerFailure = leading
        leading = nil
        let firstLine = line
        // The part starts at `input.position`, which stays put (refills keep it); `cursor` moves.
        var cursor = input.position
        var records = 0
        func refill() throws -> Bool {
            let scanned = cursor - input.position
            defer { cursor = input.position + scanned }
            return try input.refill()
        }
        while records < maximumRecords && cursor - input.position < maximumBytes {
            if cursor >= input.bytes.count {
                if try input.atEOF || !refill() { break }
            }
            if let end = plainLineEnd(from: cursor) {
                cursor = end + 1
                line += 1
                records += 1
                continue
            }
            switch scan(from: cursor, keepingFields: false) {
            case .needMore:
                if input.atEOF {
                    // An unterminated quote: its record's first line is rejected on its own.
                    cursor = min(lineEnd(from: cursor) + 1, input.bytes.count)
                    line += 1
                    records += 1
                } else if input.bytes.count - cursor > maxRecordBytes {
                    guard records == 0, headerFailure == nil else { break }  // the part ends before it
                    return OneRecordReader(try oversizedRecord(from: cursor))
                } else {
                    _ = try refill()
                }
            case .record(_, let next, let newlines), .textAfterQuote(_, let next, let newlines):
                cursor = next
                line += newlines
                records += 1
            }
        }
        guard cursor > input.position || headerFailure != nil else { return nil }
        let part = CSVReader(
            part: Array(input.bytes[input.position..<cursor]), offset: input.offset(of: input.position),
            line: firstLine, names: names, leading: headerFailure, path: path, options: options, nullValues: nullValues,
            maxRecordBytes: maxRecordBytes)
        input.position = cursor
        return part
    }

    /// The fields' names: the header's (or `columns`), read first if need be. Throws a
    /// `ConfigurationError` naming the file and the column when the header names one twice, so
    /// a run refuses the file before it starts (docs/pipeline.md#sources).
    package func columnNames() throws -> [String] {
        if !started {
            started = true
            leading = try readHeader()
        }
        if let (name, line, first, second) = duplicateColumn {
            throw ConfigurationError(file: path, line: line, key: name, Self.duplicateMessage(first, second))
        }
        return names
    }

    private static func duplicateMessage(_ first: Int, _ second: Int) -> String {
        "the header names this column twice (fields \(first) and \(second)), and a record holds one value per name; rename one of them, or name every field with csv.columns"
    }

    /// Reads the header row (or takes `columns`). Returns a failure record if it is unusable;
    /// for a file that is unusable whole (UTF-16, a column named twice), after reading it to
    /// its end.
    private func readHeader() throws -> SourceRecord? {
        _ = try input.refill()
        if let encoding = UTF16Text.detect(input.bytes) {
            return try wholeFileFailure(
                line: 1, offset: 0, raw: SourceRecord.excerpt(of: input.bytes[...]),
                Rejection(
                    stage: .read, reason: .encoding,
                    "the file is \(encoding) text, not UTF-8; set 'encoding: \(encoding.lowercased())' on the source (or convert it: iconv -f \(encoding) -t UTF-8) and run again; none of its rows were read"
                ))
        }
        if input.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { input.position = 3 }
        if !options.header {
            names = options.columns ?? []
            return nil
        }
        guard let header = try nextRecord() else { return nil }
        if header.failure != nil { return header }
        names = header.values.map { value in
            if case .text(let text) = value { return text.trimmingCharacters(in: .whitespaces) } else { return "" }
        }
        if let columns = options.columns {
            names = columns
        } else if !repeatedColumns, let (name, first, second) = Self.firstDuplicate(names) {
            duplicateColumn = (name, header.line, first, second)
            names = []
            return try wholeFileFailure(
                line: header.line, offset: header.byteOffset, raw: SourceRecord.excerpt(of: header.raw),
                Rejection(
                    stage: .read, reason: .malformed, field: name,
                    "'\(name)': \(Self.duplicateMessage(first, second)); none of the file's rows were read"))
        }
        return nil
    }

    /// The first name given twice, with the fields (from 1) that give it. Fields without a
    /// name (`a,b,,`) name no column, and may be several.
    private static func firstDuplicate(_ names: [String]) -> (String, Int, Int)? {
        var seen: [String: Int] = [:]
        for (index, name) in names.enumerated() where !name.isEmpty {
            if let first = seen[name] { return (name, first + 1, index + 1) }
            seen[name] = index
        }
        return nil
    }

    /// The one record of a file that is not read as rows: the input is consumed to its end
    /// (bounded memory), so that nothing follows it.
    private func wholeFileFailure(line: Int, offset: Int64, raw: ArraySlice<UInt8>, _ failure: Rejection) throws
        -> SourceRecord
    {
        while true {
            input.position = input.bytes.count
            if try input.atEOF || !input.refill() { break }
        }
        return SourceRecord(line: line, byteOffset: offset, raw: raw, names: [], values: [], failure: failure)
    }

    /// The next record, with its raw text, line and offset; nil at the end of the input.
    private func nextRecord() throws -> SourceRecord? {
        switch try nextScanned() {
        case nil: return nil
        case .failed(let record): return record
        case .record(let start, let end, let line): return makeRecord(start: start, end: end, line: line)
        }
    }

    /// A row found by `scan`, its fields in `fields`, or a record of one that failed.
    private enum Scanned {
        case record(start: Int, end: Int, line: Int)
        case failed(SourceRecord)
    }

    /// The next row, the input moved past it; nil at the end.
    private func nextScanned() throws -> Scanned? {
        while true {
            if input.position >= input.bytes.count {
                if try input.atEOF || !input.refill() { return nil }
            }
            let start = input.position
            switch scan(from: start) {
            case .needMore:
                if input.atEOF {
                    return .failed(unterminatedQuote(from: start))
                }
                if input.bytes.count - start > maxRecordBytes { return .failed(try oversizedRecord(from: start)) }
                _ = try input.refill()
                continue
            case .record(let end, _, _) where end - start > maxRecordBytes,
                .textAfterQuote(let end, _, _) where end - start > maxRecordBytes:
                return .failed(try oversizedRecord(from: start))
            case .record(let end, let next, let newlines):
                // The bytes stay where they are until the next read refills the window.
                let scanned = Scanned.record(start: start, end: end, line: line)
                input.position = next
                line += newlines
                return scanned
            case .textAfterQuote(let end, let next, let newlines):
                let record = failure(
                    start: start, end: end,
                    "a quoted field is followed by text before the next delimiter; quote the whole field and double any quote inside it"
                )
                input.position = next
                line += newlines
                return .failed(record)
            }
        }
    }

    /// The window ends inside a quoted field at EOF: reject the record's first line and go on
    /// with the next one.
    private func unterminatedQuote(from start: Int) -> SourceRecord {
        let end = lineEnd(from: start)
        let rawEnd = end > start && input.bytes[end - 1] == 13 ? end - 1 : end
        let record = failure(
            start: start, end: rawEnd,
            "a quoted field is never closed; the record is skipped and reading resumes on the next line")
        input.position = min(end + 1, input.bytes.count)
        line += 1
        return record
    }

    /// A record at `start` that runs past `maxRecordBytes`: its first line is rejected (reason
    /// `size`) and read to its end in bounded memory; reading resumes on the next line, as after
    /// an unterminated quote.
    private func oversizedRecord(from start: Int) throws -> SourceRecord {
        let offset = input.offset(of: start), firstLine = line
        let excerpt = SourceRecord.excerpt(of: input.bytes[start...])
        var from = start
        while true {
            let newline = input.lineFeed(from: from)
            if let newline {
                input.position = newline + 1
                line += 1
                break
            }
            input.position = input.bytes.count
            if try input.atEOF || !input.refill() { break }
            from = input.position
        }
        let size = input.offset(of: input.position) - offset
        let failure =
            size > maxRecordBytes
            ? Rejection.oversized(size: size, limit: maxRecordBytes)
            : Rejection(
                stage: .read, reason: .size,
                "a quoted field runs on past maxRecordBytes (\(maxRecordBytes)) bytes (is a quote never closed?); the record's first line is skipped and reading resumes on the next line"
            )
        return SourceRecord(line: firstLine, byteOffset: offset, raw: excerpt, names: [], values: [], failure: failure)
    }

    /// The index of the line feed that ends the line holding `start`, or the window's end.
    private func lineEnd(from start: Int) -> Int {
        let bytes = input.bytes
        var end = start
        while end < bytes.count, bytes[end] != 10 { end += 1 }
        return end
    }

    private func failure(start: Int, end: Int, _ message: String) -> SourceRecord {
        SourceRecord(
            line: line, byteOffset: input.offset(of: start), raw: input.bytes[start..<end], names: [],
            values: [], failure: Rejection(stage: .read, reason: .malformed, message))
    }

    private func makeRecord(start: Int, end: Int, line: Int) -> SourceRecord {
        let bytes = input.bytes
        var values: [FieldValue] = []
        values.reserveCapacity(fields.count)
        var invalidUTF8 = false
        bytes.withUnsafeBufferPointer { buffer in
            for span in fields {
                let slice = UnsafeBufferPointer(rebasing: buffer[span.start..<span.end])
                if !span.quoted, isNull(slice) {
                    values.append(.null)
                    continue
                }
                let text: String?
                if span.doubledQuotes {
                    text = unescape(slice).withUnsafeBufferPointer(UTF8Text.string)
                } else {
                    text = UTF8Text.string(slice)
                }
                guard let text else {
                    invalidUTF8 = true
                    return
                }
                values.append(.text(text))
            }
        }
        // Made once, as returned: a record changed after it is made is copied whole.
        let failure =
            invalidUTF8
            ? Rejection(
                stage: .read, reason: .encoding,
                "the row is not valid UTF-8; if the file is in another encoding, set the source's 'encoding:' (e.g. windows-1252), else fix the bytes"
            ) : nil
        return SourceRecord(
            line: line, byteOffset: input.offset(of: start), raw: bytes[start..<end],
            names: names, values: invalidUTF8 ? [] : values, failure: failure)
    }

    private func isNull(_ slice: UnsafeBufferPointer<UInt8>) -> Bool {
        guard nullLengths.contains(slice.count) else { return false }
        guard !slice.isEmpty, let cell = slice.baseAddress else { return nullValues.contains { $0.isEmpty } }
        for value in nullValues where value.count == slice.count {
            if value.withUnsafeBufferPointer({ memcmp($0.baseAddress!, cell, slice.count) }) == 0 { return true }
        }
        return false
    }

    private func unescape(_ slice: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(slice.count)
        var index = 0
        while index < slice.count {
            out.append(slice[index])
            index += slice[index] == options.quote ? 2 : 1
        }
        return out
    }

    /// The line feed that ends the record starting at `start` when its line has no quote and no
    /// carriage return but one just before that line feed: such a record is its line, as `scan`
    /// reads it, found a word at a time (the parts' parsers read its fields). Nil for any other
    /// record, or a line not all read.
    private func plainLineEnd(from start: Int) -> Int? {
        let quote = options.quote, delimiter = options.delimiter
        guard delimiter != 10, delimiter != 13 else { return nil }
        return input.bytes.withUnsafeBufferPointer { buffer -> Int? in
            var j = CSVBytes.skipWords(buffer, from: start, withoutAny: 10, 13, quote)
            while j < buffer.count {
                let byte = buffer[j]
                if byte == 10 { return j }
                if byte == 13, j + 1 < buffer.count, buffer[j + 1] == 10 { return j + 1 }
                if byte == 13 || byte == quote { return nil }
                j += 1
            }
            return nil
        }
    }

    /// Finds the end of the record starting at `start` and, when `keepingFields`, its fields
    /// (into `fields`).
    private func scan(from start: Int, keepingFields: Bool = true) -> Scan {
        // Filled as a local: appending to the property would check exclusive access each time.
        var spans: [CellSpan] = []
        swap(&spans, &fields)
        defer { swap(&spans, &fields) }
        spans.removeAll(keepingCapacity: true)
        let delimiter = options.delimiter, quote = options.quote
        let eof = input.atEOF
        return input.bytes.withUnsafeBufferPointer { buffer -> Scan in
            let count = buffer.count
            var i = start
            var newlines = 0
            func recordEnd(_ at: Int) -> Scan {
                if at == count { return .record(end: at, next: at, newlines: newlines) }
                if buffer[at] == 13 {
                    if at + 1 == count && !eof { return .needMore }
                    let next = at + 1 < count && buffer[at + 1] == 10 ? at + 2 : at + 1
                    return .record(end: at, next: next, newlines: newlines + 1)
                }
                return .record(end: at, next: at + 1, newlines: newlines + 1)
            }
            while true {
                if i < count && buffer[i] == quote {
                    let contentStart = i + 1
                    guard
                        let (j, doubled) = CSVBytes.closingQuote(
                            buffer, from: contentStart, quote: quote, eof: eof, newlines: &newlines)
                    else { return .needMore }
                    if keepingFields {
                        spans.append(CellSpan(start: contentStart, end: j, quoted: true, doubledQuotes: doubled))
                    }
                    i = j + 1
                    if i == count { return eof ? recordEnd(i) : .needMore }
                    let byte = buffer[i]
                    if byte == delimiter {
                        i += 1
                        continue
                    }
                    if byte == 10 || byte == 13 { return recordEnd(i) }
                    return Self.textAfterQuote(buffer, at: i, recordStart: start, eof: eof, newlines: newlines)
                } else {
                    let j = CSVBytes.firstOf(buffer, from: i, delimiter, 10, 13)
                    if j == count && !eof { return .needMore }
                    if keepingFields { spans.append(CellSpan(start: i, end: j, quoted: false, doubledQuotes: false)) }
                    if j < count && buffer[j] == delimiter {
                        i = j + 1
                        continue
                    }
                    return recordEnd(j)
                }
            }
        }
    }

    /// Text after a closing quote that is neither a delimiter nor a line end: the bad record
    /// ends at the end of its line (at `at` or later).
    @inline(__always)
    private static func textAfterQuote(
        _ buffer: UnsafeBufferPointer<UInt8>, at start: Int, recordStart: Int, eof: Bool,
        newlines: Int
    ) -> Scan {
        let count = buffer.count
        var end = start
        while end < count && buffer[end] != 10 { end += 1 }
        if end == count && !eof { return .needMore }
        let rawEnd = end > recordStart && buffer[end - 1] == 13 ? end - 1 : end
        return .textAfterQuote(end: rawEnd, next: min(end + 1, count), newlines: newlines + 1)
    }
}
