/// Doubles read from text's bytes, as `Double(text)` reads them (docs/values.md), on a fast path
/// for the commonest spelling.
enum DoubleText {
    /// Powers of ten as doubles, each exact: 10^0 through 10^15.
    private static let powersOfTen: [Double] = (0...15).map { exponent in
        (0..<exponent).reduce(1.0) { product, _ in product * 10 }
    }

    /// The double a plain decimal spells: an optional `-`, digits, and optionally a point and
    /// digits (`-12.345`), at most 15 digits in all. Nil for any other text, which
    /// `Double(text)` reads instead.
    ///
    /// Its digits as a whole number are below 2^53 and so are exact as a double, as is the power
    /// of ten it is divided by: the one division rounds correctly, as `strtod` does.
    @inline(__always)
    static func plain(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !bytes.isEmpty else { return nil }
        let negative = bytes[0] == 45
        var index = negative ? 1 : 0
        var digits: UInt64 = 0
        var count = 0
        var pointAt = -1
        while index < bytes.count {
            let byte = bytes[index]
            let digit = byte &- 48
            if digit <= 9 {
                digits = digits &* 10 &+ UInt64(digit)
                count += 1
            } else if byte == 46, pointAt < 0 {
                pointAt = count
            } else {
                return nil
            }
            index += 1
        }
        // At least one digit on each side of a point, and no more than a double holds exactly.
        guard count > 0, count <= 15, pointAt != 0, pointAt != count else { return nil }
        let scale = pointAt < 0 ? 0 : count - pointAt
        let magnitude = Double(digits) / powersOfTen[scale]
        return negative ? -magnitude : magnitude
    }
}
