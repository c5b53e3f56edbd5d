/// A record's values in one byte buffer: the length of the record's text when the record lets
/// it go (0 otherwise), the values' count, then a tag byte per value and its payload (integers
/// and dates as zigzag varints, doubles in 8 bytes, text and bytes after their varint length).
///
/// A large document's records are held in this form from their preparation to their write
/// (docs/documents.md#large-documents): about a third of the memory of `[Value]`, whose values
/// take 24 bytes each and whose text over 15 bytes has a heap buffer of its own.
package struct PackedValues: Sendable {
    private var bytes: [UInt8]

    private enum Tag: UInt8 {
        case null, string, integer, double, decimal, date, `false`, `true`, binary, pair
    }

    /// `textCount`: the length of the record's text in its input, when the record does not hold
    /// it (`PreparedRecord.textInInput`).
    package init(_ values: [Value], textCount: Int = 0) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            Self.varintSize(UInt64(textCount)) + Self.varintSize(UInt64(values.count)) + Self.packedSize(values))
        Self.appendVarint(UInt64(textCount), to: &bytes)
        Self.appendVarint(UInt64(values.count), to: &bytes)
        for value in values { Self.append(value, to: &bytes) }
        self.bytes = bytes
    }

    /// The values, in the order they were packed.
    package var values: [Value] {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            _ = Self.readVarint(buffer, at: &offset)
            let count = Int(Self.readVarint(buffer, at: &offset))
            return [Value](unsafeUninitializedCapacity: count) { values, initialized in
                for index in 0..<count { (values.baseAddress! + index).initialize(to: Self.read(buffer, at: &offset)) }
                initialized = count
            }
        }
    }

    /// The value at `index`, the values before it skipped, not read.
    package func value(at index: Int) -> Value {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            _ = Self.readVarint(buffer, at: &offset)
            _ = Self.readVarint(buffer, at: &offset)
            for _ in 0..<index { Self.skip(buffer, at: &offset) }
            return Self.read(buffer, at: &offset)
        }
    }

    /// The length of the record's text in its input, when the record does not hold it; 0 when
    /// it does.
    package var textCount: Int {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            return Int(Self.readVarint(buffer, at: &offset))
        }
    }

    /// The bytes the values take packed.
    package var byteCount: Int { bytes.count }

    private static func packedSize(_ values: [Value]) -> Int {
        var size = 0
        for value in values { size += packedSize(value) }
        return size
    }

    private static func packedSize(_ value: Value) -> Int {
        switch value {
        case .null, .boolean: 1
        case .string(let text), .decimal(let text): 1 + varintSize(UInt64(text.utf8.count)) + text.utf8.count
        case .integer(let number), .date(let number): 1 + varintSize(zigzag(number))
        case .double: 9
        case .binary(let bytes): 1 + varintSize(UInt64(bytes.count)) + bytes.count
        case .pair(let hash, let range): 1 + packedSize(hash) + packedSize(range)
        }
    }

    private static func append(_ value: Value, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(Tag.null.rawValue)
        case .string(var text):
            bytes.append(Tag.string.rawValue)
            appendText(&text, to: &bytes)
        case .decimal(var text):
            bytes.append(Tag.decimal.rawValue)
            appendText(&text, to: &bytes)
        case .integer(let number):
            bytes.append(Tag.integer.rawValue)
            appendVarint(zigzag(number), to: &bytes)
        case .date(let millis):
            bytes.append(Tag.date.rawValue)
            appendVarint(zigzag(millis), to: &bytes)
        case .double(let number):
            bytes.append(Tag.double.rawValue)
            withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        case .boolean(let flag): bytes.append(flag ? Tag.true.rawValue : Tag.false.rawValue)
        case .binary(let data):
            bytes.append(Tag.binary.rawValue)
            appendVarint(UInt64(data.count), to: &bytes)
            bytes.append(contentsOf: data)
        case .pair(let hash, let range):
            bytes.append(Tag.pair.rawValue)
            append(hash, to: &bytes)
            append(range, to: &bytes)
        }
    }

    private static func appendText(_ text: inout String, to bytes: inout [UInt8]) {
        text.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }

    private static func read(_ buffer: UnsafeBufferPointer<UInt8>, at offset: inout Int) -> Value {
        let tag = Tag(rawValue: buffer[offset])!
        offset += 1
        switch tag {
        case .null: return .null
        case .false: return .boolean(false)
        case .true: return .boolean(true)
        case .string: return .string(readText(buffer, at: &offset))
        case .decimal: return .decimal(readText(buffer, at: &offset))
        case .integer: return .integer(unzigzag(readVarint(buffer, at: &offset)))
        case .date: return .date(unzigzag(readVarint(buffer, at: &offset)))
        case .double:
            var pattern: UInt64 = 0
            for index in 0..<8 { pattern |= UInt64(buffer[offset + index]) << (8 * UInt64(index)) }
            offset += 8
            return .double(Double(bitPattern: pattern))
        case .binary:
            let count = Int(readVarint(buffer, at: &offset))
            defer { offset += count }
            return .binary(Array(buffer[offset..<offset + count]))
        case .pair:
            let hash = read(buffer, at: &offset)
            return .pair(hash, read(buffer, at: &offset))
        }
    }

    private static func skip(_ buffer: UnsafeBufferPointer<UInt8>, at offset: inout Int) {
        let tag = Tag(rawValue: buffer[offset])!
        offset += 1
        switch tag {
        case .null, .false, .true: break
        case .string, .decimal, .binary: offset += Int(readVarint(buffer, at: &offset))
        case .integer, .date: _ = readVarint(buffer, at: &offset)
        case .double: offset += 8
        case .pair:
            skip(buffer, at: &offset)
            skip(buffer, at: &offset)
        }
    }

    private static func readText(_ buffer: UnsafeBufferPointer<UInt8>, at offset: inout Int) -> String {
        let count = Int(readVarint(buffer, at: &offset))
        defer { offset += count }
        // The bytes were a String's: valid UTF-8, taken as they are.
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[offset..<offset + count]), as: UTF8.self)
    }

    private static func appendVarint(_ number: UInt64, to bytes: inout [UInt8]) {
        var rest = number
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private static func varintSize(_ number: UInt64) -> Int { max(1, (64 - number.leadingZeroBitCount + 6) / 7) }

    private static func readVarint(_ buffer: UnsafeBufferPointer<UInt8>, at offset: inout Int) -> UInt64 {
        var number: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = buffer[offset]
            offset += 1
            number |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return number }
            shift += 7
        }
    }

    private static func zigzag(_ number: Int64) -> UInt64 { UInt64(bitPattern: (number << 1) ^ (number >> 63)) }

    private static func unzigzag(_ number: UInt64) -> Int64 {
        Int64(bitPattern: number >> 1) ^ -Int64(bitPattern: number & 1)
    }
}
