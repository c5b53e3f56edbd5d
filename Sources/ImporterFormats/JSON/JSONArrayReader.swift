import ImporterCore

/// A JSON document whose top level is an array of objects, read element by element: a scan
/// finds each element's bytes and the strict parser parses just that element, so the whole
/// document is never in memory.
///
/// An element that is not a valid object is rejected on its own and reading goes on. A break in
/// the array itself (a missing `,`, a trailing comma, a stray `}`, text after `]`, a truncated
/// file) ends the reading with one rejection naming the line and column: what follows cannot be
/// read reliably, and it is counted as that one rejected record.
///
/// A large input can also be cut into parts of whole elements (`nextPart`), which other threads
/// parse, each part with a parser of its own: here only the elements' ends are found.
package final class JSONArrayReader: PartitionedRecordReader {
    private var input: ChunkedInput
    private let parser: JSONTextParser
    private let layout: JSONRecordLayout
    private let maxRecordBytes: Int
    /// The line at `input.position`, and the input offset where it starts (for columns).
    private var line = 1
    private var lineStart: Int64 = 0
    private enum State {
        case start
        /// After `[`: an element or `]`.
        case firstElement
        /// After `,`: an element.
        case element
        /// After an element: `,` or `]`.
        case separator
        /// After `]`: only whitespace.
        case end
        case done
    }
    private var state = State.start

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

    package var bytesRead: Int64 { input.bytesConsumed }

    package func next() throws -> SourceRecord? {
        switch try nextElement() {
        case nil: return nil
        case .record(let record): return record
        case .text(let range, let line, let offset):
            // Parsed before the next call moves or refills the input.
            return parser.record(input.bytes, range, line: line, offset: offset)
        }
    }

    /// The next elements (at most `maximumRecords`, and none begun once the part holds
    /// `maximumBytes`) as a reader of their own, which parses them on whatever thread reads it;
    /// nil at the end of the array. A rejection found while cutting (a break in the array, an
    /// element over `maxRecordBytes`) comes out of the part in its place.
    package func nextPart(maximumRecords: Int, maximumBytes: Int) throws -> sending RecordReader? {
        var bytes: [UInt8] = []
        var elements: [JSONArrayElement] = []
        while elements.count < maximumRecords && bytes.count < maximumBytes {
            guard let element = try nextElement() else { break }
            switch element {
            case .text(let range, let line, let offset):
                let start = bytes.count
                bytes.append(contentsOf: input.bytes[range])
                elements.append(.text(start..<bytes.count, line: line, offset: offset))
            case .record(let record):
                var copied = record
                copied.raw = ArraySlice(Array(record.raw))  // nothing shared with this reader's window
                elements.append(.record(copied))
            }
        }
        guard !elements.isEmpty else { return nil }
        return JSONArrayPart(bytes: bytes, elements: elements, layout: layout)
    }

    /// The next element: its text in `input.bytes` (the input has moved past it), not yet
    /// parsed, or a record made already (a rejection).
    private func nextElement() throws -> JSONArrayElement? {
        while true {
            let atEnd = try !skipSpace()
            switch state {
            case .done:
                return nil
            case .start:
                if atEnd {
                    state = .done
                    return nil
                }
                if input.offset(of: input.position) == 0,
                    input.bytes[input.position...].starts(with: [0xEF, 0xBB, 0xBF])
                {
                    input.position += 3
                    continue
                }
                guard input.bytes[input.position] == UInt8(ascii: "[") else {
                    return structureFailure(
                        "the file does not start with '[': a .json input must be an array of objects (use ndjson for one object per line)"
                    )
                }
                input.position += 1
                state = .firstElement
            case .firstElement, .element, .separator:
                guard !atEnd else { return structureFailure("the array is not closed with ']' (truncated file?)") }
                let byte = input.bytes[input.position]
                switch (state, byte) {
                case (.separator, UInt8(ascii: ",")):
                    input.position += 1
                    state = .element
                case (.separator, UInt8(ascii: "]")), (.firstElement, UInt8(ascii: "]")):
                    input.position += 1
                    state = .end
                case (.separator, _):
                    return structureFailure("expected ',' or ']' after an element, found \(shown(byte))")
                case (.element, UInt8(ascii: "]")):
                    return structureFailure("a trailing comma before ']'")
                case (_, UInt8(ascii: ",")), (_, UInt8(ascii: "]")), (_, UInt8(ascii: "}")), (_, UInt8(ascii: ":")):
                    return structureFailure("expected an element, found \(shown(byte))")
                default:
                    state = .separator
                    return try element()
                }
            case .end:
                if atEnd {
                    state = .done
                    return nil
                }
                return structureFailure("unexpected text after the array's closing ']'")
            }
        }
    }

    /// Skips whitespace, counting lines. False at the end of the input.
    private func skipSpace() throws -> Bool {
        while true {
            while input.position < input.bytes.count, isJSONSpace(input.bytes[input.position]) {
                if input.bytes[input.position] == 10 { newLine(at: input.position) }
                input.position += 1
            }
            if input.position < input.bytes.count { return true }
            if try input.atEOF || !input.refill() { return false }
        }
    }

    private func newLine(at index: Int) {
        line += 1
        lineStart = input.offset(of: index + 1)
    }

    /// Finds the end of the element starting at the current position: its text, or its rejection
    /// when it is larger than `maxRecordBytes` (skipped in bounded memory) or cut off by the end
    /// of the file.
    private func element() throws -> JSONArrayElement {
        let firstLine = line
        let start = input.offset(of: input.position)
        var scan = ElementScan()
        var cursor = input.position
        var excerpt: ArraySlice<UInt8>?
        while true {
            let found = input.bytes.withUnsafeBufferPointer { scan.end(in: $0, from: cursor) }
            for newline in scan.takeNewlines() { newLine(at: newline) }
            if let end = found {
                if excerpt != nil || input.offset(of: end) - start > maxRecordBytes {
                    let raw = excerpt ?? SourceRecord.excerpt(of: input.bytes[input.position..<end])
                    input.position = end
                    return .record(oversized(raw, line: firstLine, offset: start, size: input.offset(of: end) - start))
                }
                defer { input.position = end }
                return .text(input.position..<end, line: firstLine, offset: start)
            }
            cursor = input.bytes.count
            if excerpt == nil, input.offset(of: cursor) - start > maxRecordBytes {
                excerpt = SourceRecord.excerpt(of: input.bytes[input.position...])
            }
            if excerpt != nil { input.position = cursor }  // skipping: nothing of it is kept
            let scanned = cursor - input.position
            if try input.atEOF || !input.refill() {
                state = .done
                let raw = excerpt ?? input.bytes[input.position..<input.bytes.count]
                return .record(
                    SourceRecord(
                        line: firstLine, byteOffset: start, raw: raw, names: [], values: [],
                        failure: Rejection(
                            stage: .read, reason: .malformed, "the file ends inside this element (truncated file?)")))
            }
            cursor = input.position + scanned
        }
    }

    /// The rejection of an element larger than `maxRecordBytes`; `raw` is its first bytes.
    private func oversized(_ raw: ArraySlice<UInt8>, line: Int, offset: Int64, size: Int64) -> SourceRecord {
        SourceRecord(
            line: line, byteOffset: offset, raw: raw, names: [], values: [],
            failure: .oversized(size: size, limit: maxRecordBytes))
    }

    /// Ends the reading with one rejection at the current position: the rest of its line as raw text.
    private func structureFailure(_ message: String) -> JSONArrayElement {
        state = .done
        let bytes = input.bytes
        let start = min(input.position, bytes.count)
        var end = start
        while end < bytes.count, bytes[end] != 10, end - start < SourceRecord.excerptBytes { end += 1 }
        let column = input.offset(of: start) - lineStart + 1
        return .record(
            SourceRecord(
                line: line, byteOffset: input.offset(of: start), raw: bytes[start..<end], names: [], values: [],
                failure: Rejection(
                    stage: .read, reason: .malformed, "column \(column): \(message); the rest of the file is not read"
                )))
    }

    private func shown(_ byte: UInt8) -> String {
        byte >= 32 && byte < 127 ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
}

/// An element of a JSON array as its reader finds it.
enum JSONArrayElement {
    /// Its text's range in the bytes it was found in, its first line and its offset in the input.
    case text(Range<Int>, line: Int, offset: Int64)
    /// A record made already: a rejection found while looking for the element's end.
    case record(SourceRecord)
}

/// Elements cut from a JSON array by `JSONArrayReader.nextPart`, with bytes of their own: each
/// is parsed when it is read, by the part's own parser (on the thread that reads the part).
final class JSONArrayPart: RecordReader {
    private let bytes: [UInt8]
    private let elements: [JSONArrayElement]
    private let parser: JSONTextParser
    private var index = 0
    let bytesRead: Int64 = 0

    init(bytes: [UInt8], elements: [JSONArrayElement], layout: JSONRecordLayout) {
        self.bytes = bytes
        self.elements = elements
        parser = JSONTextParser(layout: layout)
    }

    func next() throws -> SourceRecord? {
        guard index < elements.count else { return nil }
        defer { index += 1 }
        switch elements[index] {
        case .text(let range, let line, let offset): return parser.record(bytes, range, line: line, offset: offset)
        case .record(let record): return record
        }
    }
}

/// Where an element of a JSON array ends, found across windows: the scan keeps its state
/// (nesting, inside a string, an escape) so a window that ends mid-element resumes where it stopped.
struct ElementScan {
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Indices of line feeds passed since the last `takeNewlines()`.
    private var newlines: [Int] = []

    /// Per byte, what the scan stops at: inside an object or array and outside strings
    /// (`inElement`: quotes, brackets, braces, line feeds), and inside strings (`inText`:
    /// quotes, backslashes, line feeds). Every other byte is passed over without a look.
    private static let stops: [UInt8] = (0...255).map { byte in
        (Array("\"{}[]\n".utf8).contains(UInt8(byte)) ? inElement : 0)
            | (Array("\"\\\n".utf8).contains(UInt8(byte)) ? inText : 0)
    }
    private static let inElement: UInt8 = 1
    private static let inText: UInt8 = 2

    /// The end (exclusive) of the element in `buffer`, scanning from `start`; nil if the window ends first.
    mutating func end(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        Self.stops.withUnsafeBufferPointer { end(in: buffer, from: start, stops: $0) }
    }

    private mutating func end(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, stops: UnsafeBufferPointer<UInt8>)
        -> Int?
    {
        var i = start
        while i < buffer.count {
            // The bytes that change nothing: within a string (not after a backslash), or
            // within the element outside strings.
            let passed = inString ? (escaped ? 0 : Self.inText) : (depth > 0 ? Self.inElement : 0)
            if passed != 0 {
                while i < buffer.count, stops[Int(buffer[i])] & passed == 0 { i += 1 }
                if i == buffer.count { break }
            }
            let byte = buffer[i]
            if byte == 10 { newlines.append(i) }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return i + 1 }
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return i }  // a scalar element ended by ']'
                    depth -= 1
                    if depth == 0 { return i + 1 }
                case UInt8(ascii: ","), 32, 9, 13, 10:
                    if depth == 0 {
                        if byte == 10 { newlines.removeLast() }  // after the element: skipSpace counts it
                        return i
                    }
                default: break
                }
            }
            i += 1
        }
        return nil
    }

    mutating func takeNewlines() -> [Int] {
        defer { newlines.removeAll(keepingCapacity: true) }
        return newlines
    }
}
