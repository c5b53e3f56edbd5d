/// The numbers a destination can hold, where they are narrower than the model's types
/// (docs/values.md#numbers-in-dynamodb): a value outside them is rejected at validation (reason
/// `range`), before anything of its record (or its document) is sent.
package enum StoreNumberLimits: Sendable {
    /// DynamoDB's `N`: up to 38 significant digits, magnitudes from 1E-130 to
    /// 9.9999999999999999999999999999999999999E+125, and 0.
    case dynamoDB

    /// The limits of a pipeline's destination; nil when its store holds every value of the
    /// model's types (SQLite).
    package init?(_ destination: DestinationConfig.Kind) {
        guard destination == .dynamodb else { return nil }
        self = .dynamoDB
    }

    /// Whether values of `type` can be outside the limits (integers of 19 digits never are).
    package func applies(to type: AttributeType) -> Bool {
        switch type {
        case .double, .float, .decimal: true
        default: false
        }
    }

    /// What is wrong with `value` for the store, or nil when it can hold it.
    package func problem(with value: Value) -> String? {
        switch value {
        case .double(let number):
            let magnitude = abs(number)
            guard magnitude != 0, magnitude < Self.smallest || magnitude >= Self.tooLarge else { return nil }
            return "\(number) is outside the numbers DynamoDB stores (\(Self.description))"
        case .decimal(let text):
            let (digits, exponent) = Self.significantDigits(ofCanonical: text)
            if digits == 0 { return nil }
            if digits > 38 {
                return
                    "\(Self.shortened(text)) has \(digits) significant digits; DynamoDB stores at most 38 (\(Self.description))"
            }
            guard exponent < -130 || exponent > 125 else { return nil }
            return "\(Self.shortened(text)) is outside the numbers DynamoDB stores (\(Self.description))"
        default:
            return nil
        }
    }

    /// 1E-130 and 1E+126 as `Double(_:)` reads them from text, as the inputs' numbers are (a
    /// literal of Swift can round differently).
    private static let smallest = Double("1e-130")!, tooLarge = Double("1e126")!

    private static let description = "up to 38 significant digits, magnitudes 1E-130 to 9.99…E+125"

    /// The significant digits of a canonical decimal (`DecimalText`: no exponent, no leading
    /// zeros, no trailing zeros in the fraction) and the decimal exponent of its first one
    /// (`1234.5` → (5, 3), `0.00012` → (2, -4)); (0, 0) for zero.
    static func significantDigits(ofCanonical text: String) -> (count: Int, exponent: Int) {
        var integerDigits = 0, leadingFractionZeros = 0, significant = 0, trailingZeros = 0
        var inFraction = false, seenNonZero = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "."): inFraction = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if !inFraction { integerDigits += 1 }
                if byte == UInt8(ascii: "0") {
                    if !seenNonZero {
                        if inFraction { leadingFractionZeros += 1 } else { integerDigits -= 1 }
                    } else {
                        trailingZeros += 1
                    }
                } else {
                    seenNonZero = true
                    significant += trailingZeros + 1
                    trailingZeros = 0
                }
            default: continue
            }
        }
        guard seenNonZero else { return (0, 0) }
        return (significant, integerDigits > 0 ? integerDigits - 1 : -(leadingFractionZeros + 1))
    }

    /// A number's text for a message: at most 40 characters, the middle cut out.
    private static func shortened(_ text: String) -> String {
        text.count <= 40 ? text : "\(text.prefix(20))…\(text.suffix(12)) (\(text.count) characters)"
    }
}
