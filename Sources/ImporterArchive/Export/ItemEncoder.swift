import ImporterCore

/// Turns stored items (values by attribute position) into the bytes of a data file.
protocol ItemEncoder {
    /// What the file starts with (a CSV header row); empty for line formats.
    var header: [UInt8] { get }
    /// Appends one item, line end included.
    func append(_ item: [Value], to bytes: inout [UInt8])
}

extension Array where Element == UInt8 {
    /// Appends the decimal digits of `number` without making a String.
    mutating func appendDecimal(_ number: Int64) {
        if number < 0 { append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64) = (0, 0)  // scratch space for up to 20 digits
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

    /// Appends text as its UTF-8 bytes.
    mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends a date as `YYYY-MM-DDTHH:MM:SS.sssZ`, the text SQLite stores (SPEC §5).
    mutating func appendDate(_ millis: Int64) {
        appendText(ISO8601.format(millis: millis))
    }

    /// Appends a double as the shortest text that reads back to the same value.
    mutating func appendDouble(_ number: Double) {
        appendText(number.description)
    }
}
