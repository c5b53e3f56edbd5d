/// Word-at-a-time tests over text bytes (eight per step): encoders check every text cell for
/// the few bytes that need quoting or escaping, and most cells have none.
package enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether `text` holds a comma, quote, CR or LF (a CSV cell that needs quotes).
    package static func needsCSVQuotes(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        scan(
            text, word: { hasByte($0, 44) || hasByte($0, 34) || hasByte($0, 10) || hasByte($0, 13) },
            byte: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 })
    }

    /// Whether `text` holds a quote, backslash or control character (a JSON string that needs escapes).
    package static func needsJSONEscapes(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        scan(
            text, word: { hasByteBelow($0, 0x20) || hasByte($0, 34) || hasByte($0, 92) },
            byte: { $0 < 0x20 || $0 == 34 || $0 == 92 })
    }

    @inline(__always)
    private static func scan(_ text: UnsafeBufferPointer<UInt8>, word: (UInt64) -> Bool, byte: (UInt8) -> Bool) -> Bool
    {
        guard let base = text.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= text.count {
            if word(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return true }
            index += 8
        }
        while index < text.count {
            if byte(text[index]) { return true }
            index += 1
        }
        return false
    }

    /// Some byte of `word` equals `value` (the classic zero-byte test on `word ^ value…`).
    @inline(__always)
    private static func hasByte(_ word: UInt64, _ value: UInt8) -> Bool {
        let x = word ^ (ones &* UInt64(value))
        return (x &- ones) & ~x & highs != 0
    }

    /// Some byte of `word` is below `limit` (≤ 128).
    @inline(__always)
    private static func hasByteBelow(_ word: UInt64, _ limit: UInt8) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highs != 0
    }
}
