/// Byte scans of the CSV reader's hot path, eight bytes at a time where it can.
enum CSVBytes {
    /// The closing quote of a quoted field whose content starts at `start`, and whether the
    /// content has doubled quotes; nil when the window ends first. Counts the line breaks inside.
    @inline(__always)
    static func closingQuote(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, quote: UInt8, eof: Bool,
        newlines: inout Int
    ) -> (Int, Bool)? {
        let count = buffer.count
        var j = start
        var doubled = false
        while true {
            while true {  // to the next quote, counting line breaks
                j = skipWords(buffer, from: j, withoutAny: quote, 10, quote)
                while j < count && buffer[j] != quote && buffer[j] != 10 { j += 1 }
                guard j < count, buffer[j] == 10 else { break }
                newlines += 1
                j += 1
            }
            if j == count { return nil }
            if j + 1 == count && !eof { return nil }
            guard j + 1 < count && buffer[j + 1] == quote else { return (j, doubled) }
            doubled = true
            j += 2
        }
    }

    /// The offset of the first byte from `start` on that is `a`, `b` or `c`, or the buffer's
    /// count: eight bytes at a time, the first such byte of a word found by its lowest set bit
    /// (the zero-byte trick is exact for the lowest one), so that a short field costs one word.
    @inline(__always)
    static func firstOf(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, _ a: UInt8, _ b: UInt8, _ c: UInt8)
        -> Int
    {
        guard let base = buffer.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let fillA = ones &* UInt64(a), fillB = ones &* UInt64(b), fillC = ones &* UInt64(c)
        var offset = start
        while offset + 8 <= buffer.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
            let xa = word ^ fillA, xb = word ^ fillB, xc = word ^ fillC
            let found = ((xa &- ones) & ~xa | (xb &- ones) & ~xb | (xc &- ones) & ~xc) & highs
            if found != 0 { return offset + found.trailingZeroBitCount / 8 }
            offset += 8
        }
        while offset < buffer.count {
            let byte = base[offset]
            if byte == a || byte == b || byte == c { return offset }
            offset += 1
        }
        return offset
    }

    /// The offset, from `start` on, of the first 8-byte word of `buffer` that may hold `a`, `b`
    /// or `c` (or of its last few bytes): the scan then goes on byte by byte. Eight bytes at a
    /// time, by the bit trick that tells whether a word has a zero byte.
    @inline(__always)
    static func skipWords(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, withoutAny a: UInt8, _ b: UInt8,
        _ c: UInt8
    ) -> Int {
        guard let base = buffer.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let fillA = ones &* UInt64(a), fillB = ones &* UInt64(b), fillC = ones &* UInt64(c)
        var offset = start
        while offset + 8 <= buffer.count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            let xa = word ^ fillA, xb = word ^ fillB, xc = word ^ fillC
            if ((xa &- ones) & ~xa | (xb &- ones) & ~xb | (xc &- ones) & ~xc) & highs != 0 { break }
            offset += 8
        }
        return offset
    }
}
