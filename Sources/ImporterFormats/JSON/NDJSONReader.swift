import Foundation
import ImporterCore

/// Newline-delimited JSON: one object per line, parsed strictly (RFC 8259) line by line. A bad line is
/// rejected on its own and reading goes on. With `layout: .dynamoDBItem` each line is a
/// DynamoDB export item, `{"Item":{"attr":{"S":"…"}}}`.
///
/// A large input can also be cut into parts (`nextPart`) at line ends, which other threads
/// parse, each part with a parser of its own.
///
/// A line longer than `maxRecordBytes` is rejected (reason `size`) and skipped without being
/// kept in memory.
package final class NDJSONReader: PartitionedRecordReader {
    private var input: ChunkedInput
    private let parser: JSONTextParser
    private let layout: JSONRecordLayout
    private let maxRecordBytes: Int
    /// The line before the one at `input.position`.
    private var line = 0

    package convenience init(
        path: String, layout: JSONRecordLayout = .object, maxRecordBytes: Int = SourceConfig.defaultMaxRecordBytes
    ) throws {
        self.init(source: try openByteSource(path), layout: layout, maxRecordBytes: maxRecordBytes)
    }

    package init(
        source: ByteSource, layout: JSONRecordLayout = .object, maxRecordBytes: Int = SourceConfig.defaultMaxRecordBytes
    ) {
        input = ChunkedInput(source: source)
        parser = JSONTextParser(layout: layout)
        self.layout = layout
        self.maxRecordBytes = maxRecordBytes
    }

    /// A reader of whole lines cut from an input: `bytes` start at `offset` in it, after `line`
    /// lines.
    private init(part bytes: [UInt8], offset: Int64, line: Int, layout: JSONRecordLayout, maxRecordBytes: Int) {
        input = ChunkedInput(bytes: bytes, offset: offset)
        parser = JSONTextParser(layout: layout)
        self.layout = layout
        self.maxRecordBytes = maxRecordBytes
        self.line = line
    }

    package var bytesRead: Int64 { input.bytesConsumed }

    package func next() throws -> SourceRecord? {
        while true {
            let start: Int, end: Int, next: Int
            switch try nextLine() {
            case .end: return nil
            case .tooLong:
                line += 1
                return try skipLongLine()
            case .line(let bounds):
                line += 1
                (start, end, next) = bounds
                if end - start > maxRecordBytes { return try skipLongLine() }
            }
            let bytes = input.bytes
            var contentStart = start
            if input.offset(of: start) == 0, bytes[start...].starts(with: [0xEF, 0xBB, 0xBF]) { contentStart += 3 }
            let contentEnd = end > contentStart && bytes[end - 1] == 13 ? end - 1 : end
            input.position = next
            if bytes[contentStart..<contentEnd].allSatisfy(isJSONSpace) { continue }
            return parser.record(bytes, contentStart..<contentEnd, line: line, offset: input.offset(of: contentStart))
        }
    }

    /// The next `maximumRecords` lines (fewer at the end of the input or once the part holds
    /// `maximumBytes`; blank lines count), as a reader of their own. Only line ends are looked
    /// for here; the part's reader parses them.
    package func nextPart(maximumRecords: Int, maximumBytes: Int) throws -> sending RecordReader? {
        let firstLine = line
        var lines = 0
        // The part starts at `input.position`, which stays put (refills keep it); `cursor` moves.
        var cursor = input.position
        var lineStart = cursor
        while lines < maximumRecords && cursor - input.position < maximumBytes {
            let newline = input.lineFeed(from: cursor)
            if let newline {
                cursor = newline + 1
                lineStart = cursor
                lines += 1
                continue
            }
            if input.bytes.count - lineStart > maxRecordBytes {
                guard lines == 0 else { break }  // the part ends before the long line
                line += 1
                return OneRecordReader(try skipLongLine())
            }
            if input.atEOF {
                if cursor < input.bytes.count {  // the last line, without a line feed
                    cursor = input.bytes.count
                    lines += 1
                }
                break
            }
            let scanned = cursor - input.position, lineOffset = lineStart - input.position
            _ = try input.refill()
            cursor = input.position + scanned
            lineStart = input.position + lineOffset
        }
        guard cursor > input.position else { return nil }
        // Bytes of its own: the thread reading the part retains them for every record's raw text.
        let part = NDJSONReader(
            part: Array(input.bytes[input.position..<cursor]), offset: input.offset(of: input.position),
            line: firstLine, layout: layout, maxRecordBytes: maxRecordBytes)
        input.position = cursor
        line += lines
        return part
    }

    private enum NextLine {
        /// Its start, its end (before `\n`) and where the next line begins.
        case line((Int, Int, Int))
        /// Longer than `maxRecordBytes`; it starts at `input.position`.
        case tooLong
        case end
    }

    /// The bounds of the next line.
    private func nextLine() throws -> NextLine {
        var scanned = 0  // bytes of the line already searched for a line feed
        while true {
            let start = input.position
            let newline = input.lineFeed(from: start + scanned)
            if let newline { return .line((start, newline, newline + 1)) }
            scanned = input.bytes.count - start
            if scanned > maxRecordBytes { return .tooLong }
            if input.atEOF {
                let count = input.bytes.count
                return start < count ? .line((start, count, count)) : .end
            }
            _ = try input.refill()
        }
    }

    /// The rejection of the line at `input.position`, longer than `maxRecordBytes`: read to its
    /// end in bounded memory, only its first bytes kept.
    private func skipLongLine() throws -> SourceRecord {
        let offset = input.offset(of: input.position)
        let excerpt = SourceRecord.excerpt(of: input.bytes[input.position...])
        while true {
            let from = input.position
            let newline = input.lineFeed(from: from)
            if let newline {
                input.position = newline + 1
                return SourceRecord(
                    line: line, byteOffset: offset, raw: excerpt, names: [], values: [],
                    failure: .oversized(size: input.offset(of: newline) - offset, limit: maxRecordBytes))
            }
            input.position = input.bytes.count
            if try input.atEOF || !input.refill() {
                return SourceRecord(
                    line: line, byteOffset: offset, raw: excerpt, names: [], values: [],
                    failure: .oversized(size: input.offset(of: input.position) - offset, limit: maxRecordBytes))
            }
        }
    }
}

/// A reader of one record made already: a part that is a single skipped line.
final class OneRecordReader: RecordReader {
    private var record: SourceRecord?
    let bytesRead: Int64 = 0

    init(_ record: SourceRecord) { self.record = record }

    func next() throws -> SourceRecord? {
        defer { record = nil }
        return record
    }
}
