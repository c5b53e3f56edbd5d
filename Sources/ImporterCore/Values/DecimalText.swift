/// Exact decimal numbers as canonical text: no binary rounding, ever.
///
/// Canonical form: optional `-`, integer digits without leading zeros (at least one),
/// and a fraction without trailing zeros (`12.5`, `0.001`, `-3`, `0`).
package enum DecimalText {
    /// The canonical text of a decimal literal (`+1.50`, `1e3`, `-0.0`), or nil if it is not one.
    package static func canonical(_ text: String) -> String? {
        isCanonical(text) ? text : rendered(text)
    }

    /// The canonical text of a decimal literal, built digit by digit.
    static func rendered(_ text: String) -> String? {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var digits: [UInt8] = []
        var pointPosition: Int?
        var exponent = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte >= 48 && byte <= 57 {
                digits.append(byte)
            } else if byte == UInt8(ascii: ".") && pointPosition == nil {
                pointPosition = digits.count
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                guard let value = Int(String(decoding: bytes[(index + 1)...], as: UTF8.self)), abs(value) <= 1000 else {
                    return nil
                }
                exponent = value
                break
            } else {
                return nil
            }
            index += 1
        }
        guard !digits.isEmpty else { return nil }
        // Value = digits × 10^(exponent − fractionDigits)
        let scale = exponent - (digits.count - (pointPosition ?? digits.count))
        return render(digits: digits, scale: scale, negative: negative)
    }

    /// Whether `text` is in canonical form already, as most decimals in a dump are: then it is
    /// its own canonical text, found in one pass without allocating.
    static func isCanonical(_ text: String) -> Bool {
        var utf8 = text.utf8.makeIterator()
        var byte = utf8.next()
        let negative = byte == UInt8(ascii: "-")
        if negative { byte = utf8.next() }
        guard let first = byte, first >= 48 && first <= 57 else { return false }
        var integerDigits = 1
        byte = utf8.next()
        while let digit = byte, digit >= 48 && digit <= 57 {
            integerDigits += 1
            byte = utf8.next()
        }
        if integerDigits > 1 && first == 48 { return false }  // a leading zero
        guard let point = byte else { return !(negative && first == 48) }  // "-0" is "0"
        guard point == UInt8(ascii: "."), var last = utf8.next(), last >= 48 && last <= 57 else { return false }
        while let digit = utf8.next() {
            guard digit >= 48 && digit <= 57 else { return false }
            last = digit
        }
        return last != 48  // no trailing zero
    }

    private static func render(digits: [UInt8], scale: Int, negative: Bool) -> String {
        var digits = digits
        var scale = scale
        while digits.count > 1, digits.first == 48 { digits.removeFirst() }
        while scale < 0, digits.count > 1 || digits.first != 48, digits.last == 48 {
            digits.removeLast()
            scale += 1
        }
        if digits == [48] { return "0" }
        var integer: [UInt8]
        var fraction: [UInt8] = []
        if scale >= 0 {
            integer = digits + [UInt8](repeating: 48, count: scale)
        } else if -scale >= digits.count {
            integer = [48]
            fraction = [UInt8](repeating: 48, count: -scale - digits.count) + digits
        } else {
            integer = Array(digits[..<(digits.count + scale)])
            fraction = Array(digits[(digits.count + scale)...])
        }
        var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        out += integer
        if !fraction.isEmpty { out += [UInt8(ascii: ".")] + fraction }
        return String(decoding: out, as: UTF8.self)
    }
}
