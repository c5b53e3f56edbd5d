import ImporterCore

/// A JSON document whose top level is an array of objects, read element by element: the
/// scanner finds each element's bytes and json-c parses just that element, so the whole
/// document is never in memory.
public final class JSONArrayReader: RecordReader {
    private var input: ChunkedInput
    private let parser = JSONTextParser()
    /// The line at `input.position`.
    private var line = 1
    private enum State { case start, elements, done }
    private var state = State.start

    public convenience init(path: String) throws {
        self.init(source: try openByteSource(path))
    }

    public init(source: ByteSource) {
        input = ChunkedInput(source: source)
    }

    public var bytesRead: Int64 { input.bytesConsumed }

    public func next() throws -> SourceRecord? {
        while true {
            switch state {
            case .done:
                return nil
            case .start:
                guard try skipSpace() else {
                    state = .done
                    return nil
                }
                if input.offset(of: input.position) == 0, input.bytes[input.position...].starts(with: [0xEF, 0xBB, 0xBF]) {
                    input.position += 3
                    continue
                }
                guard input.bytes[input.position] == UInt8(ascii: "[") else {
                    state = .done
                    return documentFailure("the file does not start with '[': a .json input must be an array of objects (use ndjson for one object per line)")
                }
                input.position += 1
                state = .elements
            case .elements:
                guard try skipSpace() else {
                    state = .done
                    return documentFailure("the array is not closed with ']' (truncated file?)")
                }
                let byte = input.bytes[input.position]
                if byte == UInt8(ascii: ",") {
                    input.position += 1
                    continue
                }
                if byte == UInt8(ascii: "]") {
                    state = .done
                    return nil
                }
                return try element()
            }
        }
    }

    /// Skips whitespace, counting lines. False at the end of the input.
    private func skipSpace() throws -> Bool {
        while true {
            while input.position < input.bytes.count, isJSONSpace(input.bytes[input.position]) {
                if input.bytes[input.position] == 10 { line += 1 }
                input.position += 1
            }
            if input.position < input.bytes.count { return true }
            if try input.atEOF || !input.refill() { return false }
        }
    }

    /// Reads the element starting at the current position.
    private func element() throws -> SourceRecord {
        while true {
            let start = input.position
            if let (end, newlines) = scanElement(from: start) {
                let record = parser.record(input.bytes, start..<end, line: line, offset: input.offset(of: start))
                input.position = end
                line += newlines
                return record
            }
            if input.atEOF {
                let end = input.bytes.count
                let record = SourceRecord(
                    line: line, byteOffset: input.offset(of: start), raw: input.bytes[start..<end], names: [], values: [],
                    failure: Rejection(stage: .read, reason: .malformed, "the file ends inside this element (truncated file?)"))
                state = .done
                return record
            }
            _ = try input.refill()
        }
    }

    /// The end of the element at `start` and the newlines inside it; nil if the window ends first.
    private func scanElement(from start: Int) -> (Int, Int)? {
        input.bytes.withUnsafeBufferPointer { buffer -> (Int, Int)? in
            var depth = 0
            var inString = false
            var newlines = 0
            var i = start
            while i < buffer.count {
                let byte = buffer[i]
                if byte == 10 { newlines += 1 }
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        i += 2
                        continue
                    }
                    if byte == UInt8(ascii: "\"") {
                        inString = false
                        if depth == 0 { return (i + 1, newlines) }
                    }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        if depth == 0 { return (i, newlines) }  // a scalar element ended by ']'
                        depth -= 1
                        if depth == 0 { return (i + 1, newlines) }
                    case UInt8(ascii: ","), 32, 9, 13, 10:
                        if depth == 0 { return (i, newlines - (byte == 10 ? 1 : 0)) }
                    default: break
                    }
                }
                i += 1
            }
            return nil
        }
    }

    private func documentFailure(_ message: String) -> SourceRecord {
        let bytes = input.bytes
        let start = min(input.position, bytes.count)
        var end = start
        while end < bytes.count, bytes[end] != 10 { end += 1 }
        return SourceRecord(line: line, byteOffset: input.offset(of: start), raw: bytes[start..<end], names: [], values: [],
                            failure: Rejection(stage: .read, reason: .malformed, message))
    }
}
