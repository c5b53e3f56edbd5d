import ImporterCore

/// Turns stored items into the bytes of a data file.
protocol ItemEncoder {
    /// What the file starts with (a CSV header row); empty for line formats.
    var header: [UInt8] { get }
    /// Appends one item, line end included.
    func append(_ row: any StoredRow, to bytes: inout [UInt8])
}

/// How an attribute's cells are written, from its type.
enum CellKind {
    case text, decimal, integer, double, boolean, date

    init(_ type: AttributeType) {
        switch type {
        case .string: self = .text
        case .decimal: self = .decimal
        case .int16, .int32, .int64: self = .integer
        case .double, .float: self = .double
        case .boolean: self = .boolean
        case .date: self = .date
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends the decimal digits of `number` without making a String.
    mutating func appendDecimal(_ number: Int64) {
        if number < 0 { append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // scratch space for up to 24 digits
        Swift.withUnsafeMutableBytes(of: &digits) { scratch in
            var index = scratch.count
            repeat {
                index -= 1
                scratch[index] = UInt8(truncatingIfNeeded: magnitude % 10) + 48
                magnitude /= 10
            } while magnitude > 0
            self.append(contentsOf: scratch[index...])
        }
    }

    /// Appends a double as the shortest text that reads back to the same value.
    mutating func appendDouble(_ number: Double) {
        var text = number.description
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends `text` as a quoted JSON string: quotes, backslashes and control characters
    /// escaped, everything else as is. Runs without escapes are copied whole.
    mutating func appendJSONString(_ text: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        guard ByteScan.needsJSONEscapes(text) else {
            append(contentsOf: text)
            return append(UInt8(ascii: "\""))
        }
        var start = 0
        for (index, byte) in text.enumerated() where byte < 0x20 || byte == 34 || byte == 92 {
            append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<index]))
            switch byte {
            case 34: append(contentsOf: #"\""#.utf8)
            case 92: append(contentsOf: #"\\"#.utf8)
            case 10: append(contentsOf: #"\n"#.utf8)
            case 13: append(contentsOf: #"\r"#.utf8)
            case 9: append(contentsOf: #"\t"#.utf8)
            default:
                append(contentsOf: #"\u00"#.utf8)
                append(hexDigits[Int(byte >> 4)])
                append(hexDigits[Int(byte & 15)])
            }
            start = index + 1
        }
        append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
        append(UInt8(ascii: "\""))
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)
