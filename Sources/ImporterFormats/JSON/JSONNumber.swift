/// The byte steps of JSON numbers and `\u` escapes that the fast scanners share.
enum JSONNumber {
    /// The end of the number at `start`, if it is a JSON number,
    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; nil otherwise. Its text is kept exactly.
    @inline(__always)
    static func end(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int? {
        @inline(__always) func isDigit(_ index: Int) -> Bool { index < count && base[index] >= 48 && base[index] <= 57 }
        var i = start
        if base[i] == 45 { i += 1 }
        guard isDigit(i) else { return nil }
        if base[i] == 48 {
            i += 1
            if isDigit(i) { return nil }
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < count, base[i] == 46 {  // .
            i += 1
            guard isDigit(i) else { return nil }
            while isDigit(i) { i += 1 }
        }
        if i < count, base[i] == 101 || base[i] == 69 {  // e E
            i += 1
            if i < count, base[i] == 43 || base[i] == 45 { i += 1 }  // + -
            guard isDigit(i) else { return nil }
            while isDigit(i) { i += 1 }
        }
        return i
    }

    /// The value of a hex digit, nil for another byte.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 48...57: UInt32(byte - 48)
        case 97...102: UInt32(byte - 87)
        case 65...70: UInt32(byte - 55)
        default: nil
        }
    }
}
