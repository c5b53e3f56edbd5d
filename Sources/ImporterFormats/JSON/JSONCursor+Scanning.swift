/// The document scanner's steps over a JSON text (`DocumentScanner`).
extension JSONCursor {
    /// A key without escapes and its colon: the key's bytes; nil for the strict parser.
    @inline(__always) mutating func plainKey() -> Range<Int>? {
        guard i < count, base[i] == 34 else { return nil }
        let j = stringStop(from: i + 1)
        guard j < count, base[j] == 34 else { return nil }
        let key = i + 1..<j
        i = j + 1
        skipSpace()
        guard take(58) else { return nil }  // :
        skipSpace()
        return key
    }

    /// Moves past the string whose opening quote is at the cursor, if its escapes are JSON's
    /// (its UTF-8 is not checked); false otherwise.
    mutating func skipString() -> Bool {
        var j = i + 1
        while true {
            j = stringStop(from: j)
            guard j < count else { return false }
            let byte = base[j]
            if byte == 34 {
                i = j + 1
                return true
            }
            // A control character, or a backslash.
            guard byte == 92, j + 1 < count else { return false }
            switch base[j + 1] {
            case 34, 92, 47, 98, 102, 110, 114, 116: j += 2
            case 117:
                guard let scalar = hex4(at: j + 2), !(0xDC00...0xDFFF).contains(scalar) else { return false }
                j += 6
                if (0xD800...0xDBFF).contains(scalar) {
                    guard j + 1 < count, base[j] == 92, base[j + 1] == 117, let low = hex4(at: j + 2),
                        (0xDC00...0xDFFF).contains(low)
                    else { return false }
                    j += 6
                }
            default: return false
            }
        }
    }

    /// The index of the first quote, backslash or control character from `start` on (`count` if
    /// none): what ends a string's plain run of bytes. Eight bytes at a time while eight remain.
    @inline(__always) func stringStop(from start: Int) -> Int {
        var j = start
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while j + 8 <= count {
            let word = UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)
            // A byte's high bit is set where it is 0 after the XOR (a quote, a backslash), or
            // below 32; bits above the first such byte may be set wrongly, never below it.
            let quotes = word ^ (ones &* 34), backslashes = word ^ (ones &* 92)
            let found =
                ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes | (word &- ones &* 32) & ~word)
                & highs
            if found != 0 { return j + found.trailingZeroBitCount / 8 }
            j += 8
        }
        while j < count {
            let byte = base[j]
            if byte == 34 || byte == 92 || byte < 32 { return j }
            j += 1
        }
        return count
    }

    private func hex4(at start: Int) -> UInt32? {
        guard start + 4 <= count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = JSONNumber.hexValue(base[start + offset]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }
}
