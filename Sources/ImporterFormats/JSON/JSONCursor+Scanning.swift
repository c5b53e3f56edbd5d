/// The document scanner's steps over a JSON text (`DocumentScanner`).
extension JSONCursor {
    /// A key without escapes and its colon: the key's bytes; nil for the strict parser.
    @inline(__always) mutating func plainKey() -> Range<Int>? {
        guard i < count, base[i] == 34 else { return nil }
        var j = i + 1
        while j < count {
            let byte = base[j]
            if byte == 34 { break }
            if byte < 32 || byte == 92 { return nil }
            j += 1
        }
        guard j < count else { return nil }
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
        while j < count {
            let byte = base[j]
            if byte == 34 {
                i = j + 1
                return true
            }
            if byte < 32 { return false }
            if byte == 92 {
                guard j + 1 < count else { return false }
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
                continue
            }
            j += 1
        }
        return false
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
