import Foundation
import ImporterCore

/// Newline-delimited JSON: one object per line, parsed by json-c line by line. A bad line is
/// rejected on its own and reading goes on. With `layout: .dynamoDBItem` each line is a
/// DynamoDB export item, `{"Item":{"attr":{"S":"…"}}}`.
///
/// A large input can also be cut into parts (`nextPart`) at line ends, which other threads
/// parse, each part with a json-c tokener of its own.
public final class NDJSONReader: PartitionedRecordReader {
    private var input: ChunkedInput
    private let parser: JSONTextParser
    private let layout: JSONRecordLayout
    /// The line before the one at `input.position`.
    private var line = 0

    public convenience init(path: String, layout: JSONRecordLayout = .object) throws {
        self.init(source: try openByteSource(path), layout: layout)
    }

    public init(source: ByteSource, layout: JSONRecordLayout = .object) {
        input = ChunkedInput(source: source)
        parser = JSONTextParser(layout: layout)
        self.layout = layout
    }

    /// A reader of whole lines cut from an input: `bytes` start at `offset` in it, after `line`
    /// lines.
    private init(part bytes: [UInt8], offset: Int64, line: Int, layout: JSONRecordLayout) {
        input = ChunkedInput(bytes: bytes, offset: offset)
        parser = JSONTextParser(layout: layout)
        self.layout = layout
        self.line = line
    }

    public var bytesRead: Int64 { input.bytesConsumed }

    public func next() throws -> SourceRecord? {
        while true {
            guard let (start, end, next) = try nextLine() else { return nil }
            line += 1
            let bytes = input.bytes
            var contentStart = start
            if input.offset(of: start) == 0, bytes[start...].starts(with: [0xEF, 0xBB, 0xBF]) { contentStart += 3 }
            let contentEnd = end > contentStart && bytes[end - 1] == 13 ? end - 1 : end
            input.position = next
            if bytes[contentStart..<contentEnd].allSatisfy(isJSONSpace) { continue }
            return parser.record(bytes, contentStart..<contentEnd, line: line, offset: input.offset(of: contentStart))
        }
    }

    /// The next `maximumRecords` lines (fewer at the end of the input; blank lines count), as a
    /// reader of their own. Only line ends are looked for here; the part's reader parses them.
    public func nextPart(maximumRecords: Int) throws -> sending RecordReader? {
        let firstLine = line
        var lines = 0
        // The part starts at `input.position`, which stays put (refills keep it); `cursor` moves.
        var cursor = input.position
        while lines < maximumRecords {
            let newline = input.bytes.withUnsafeBufferPointer { buffer -> Int? in
                guard cursor < buffer.count,
                      let found = memchr(buffer.baseAddress! + cursor, 10, buffer.count - cursor)
                else { return nil }
                return buffer.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            if let newline {
                cursor = newline + 1
                lines += 1
                continue
            }
            if input.atEOF {
                if cursor < input.bytes.count {  // the last line, without a line feed
                    cursor = input.bytes.count
                    lines += 1
                }
                break
            }
            let scanned = cursor - input.position
            _ = try input.refill()
            cursor = input.position + scanned
        }
        guard cursor > input.position else { return nil }
        // Bytes of its own: the thread reading the part retains them for every record's raw text.
        let part = NDJSONReader(part: Array(input.bytes[input.position..<cursor]), offset: input.offset(of: input.position),
                                line: firstLine, layout: layout)
        input.position = cursor
        line += lines
        return part
    }

    /// The bounds of the next line: its start, its end (before `\n`) and where the next begins.
    private func nextLine() throws -> (Int, Int, Int)? {
        while true {
            let start = input.position
            let newline = input.bytes.withUnsafeBufferPointer { buffer -> Int? in
                guard start < buffer.count else { return nil }
                guard let found = memchr(buffer.baseAddress! + start, 10, buffer.count - start) else { return nil }
                return buffer.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            if let newline { return (start, newline, newline + 1) }
            if input.atEOF {
                let count = input.bytes.count
                return start < count ? (start, count, count) : nil
            }
            _ = try input.refill()
        }
    }
}
