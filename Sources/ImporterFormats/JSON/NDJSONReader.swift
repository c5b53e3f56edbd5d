import Foundation
import ImporterCore

/// Newline-delimited JSON: one object per line, parsed by json-c line by line. A bad line is
/// rejected on its own and reading goes on. With `layout: .dynamoDBItem` each line is a
/// DynamoDB export item, `{"Item":{"attr":{"S":"…"}}}`.
public final class NDJSONReader: RecordReader {
    private var input: ChunkedInput
    private let parser: JSONTextParser
    private var line = 0

    public convenience init(path: String, layout: JSONRecordLayout = .object) throws {
        self.init(source: try openByteSource(path), layout: layout)
    }

    public init(source: ByteSource, layout: JSONRecordLayout = .object) {
        input = ChunkedInput(source: source)
        parser = JSONTextParser(layout: layout)
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
