/// The types that still hold every value seen in a column (a lattice narrowed value by value),
/// judged by `ValueCoercion`, the rules `importer run` applies, plus one of its own: a number
/// written with a leading zero (`0123`, `-007`) is no number, so it stays a string.
struct TypeCandidates {
    var boolean = true
    var integer = true
    var double = true
    var uuid = true
    var string = true
    /// Bit `i`: `DateCandidates.formats[i]` reads every value.
    var dates = DateCandidates.all
    /// The smallest and largest integer seen.
    var minimum = Int64.max
    var maximum = Int64.min
    /// A value was written as a word (true, no, …), not as 0 or 1.
    var booleanWord = false
    /// Values seen (not null).
    var count = 0

    /// No type holds every value.
    var isEmpty: Bool { !(boolean || integer || double || uuid || string) && dates == 0 }

    /// Narrows the candidates to those that accept `field` (not null). `form` is what
    /// `KeyHash` read of its text: an integer, ISO-8601 and UUID text are recognised there once,
    /// exactly as `ValueCoercion` reads them.
    mutating func observe(_ field: FieldValue, form: KeyHash.Form? = nil) {
        count += 1
        switch field {
        case .null:
            count -= 1
        case .composite, .collection:
            (boolean, integer, double, uuid, string, dates) = (false, false, false, false, false, 0)
        case .bool:
            booleanWord = true
            (integer, double, uuid, string, dates) = (false, false, false, false, 0)
        case .text(var text):
            let form = form ?? KeyHash.of(field).form
            text.withUTF8 { narrow($0, form: form, isNumber: false, field: field) }
        case .number(var text):
            boolean = false
            uuid = false
            let form = form ?? KeyHash.of(field).form
            text.withUTF8 { narrow($0, form: form, isNumber: true, field: field) }
        }
    }

    /// `observe(.text(text))` for text given as its UTF-8 bytes, with what `KeyHash` read of
    /// it: the value is made only when a candidate is judged by coercion.
    mutating func observe(bytes: UnsafeBufferPointer<UInt8>, form: KeyHash.Form) {
        count += 1
        narrow(bytes, form: form, isNumber: false, field: nil)
    }

    /// Narrows the candidates by a value's text (`bytes`); `field` is the value, made from the
    /// text when nil and a candidate is judged by coercion (a column's first values, mostly).
    private mutating func narrow(
        _ bytes: UnsafeBufferPointer<UInt8>, form: KeyHash.Form, isNumber: Bool, field: FieldValue?
    ) {
        func value() -> FieldValue { field ?? .text(String(decoding: bytes, as: UTF8.self)) }
        if integer || double || boolean {
            if case .integer(let number) = form {
                narrowIntegers(number)
                if boolean { boolean = accepts(value(), .boolean) }
            } else {
                integer = false
                if double {
                    double =
                        NumberShape.plainDecimal(bytes)
                        ?? Self.holdsDouble(String(decoding: bytes, as: UTF8.self), value())
                }
                if boolean {
                    boolean = accepts(value(), .boolean)
                    if boolean { booleanWord = true }
                }
            }
        }
        if uuid { uuid = form == .uuid }
        // ISO-8601 text was recognised by `KeyHash`; a JSON number is judged by coercion.
        if !isNumber, dates & 1 != 0, form != .iso8601 { dates &= ~1 }
        if (isNumber ? dates : dates & ~1) != 0 { narrowDates(value(), skippingISO: !isNumber) }
    }

    /// Int64 reads the text, so a double reads it too; as a boolean only 0 and 1 are read.
    private mutating func narrowIntegers(_ number: Int64) {
        if integer {
            minimum = min(minimum, number)
            maximum = max(maximum, number)
        }
    }

    /// Whether a double column holds `field`, whose text is `text` (not of `plainDecimal`'s form).
    private static func holdsDouble(_ text: String, _ field: FieldValue) -> Bool {
        let shape = NumberShape(text)
        guard !shape.leadingZero, !shape.oversizedInteger else { return false }
        if case .success = ValueCoercion.coerce(field, to: .double, dateFormat: .iso8601) { return true }
        return false
    }

    private mutating func narrowDates(_ field: FieldValue, skippingISO: Bool) {
        var remaining = skippingISO ? dates & ~1 : dates
        while remaining != 0 {
            let index = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            if case .failure = ValueCoercion.coerce(field, to: .date, dateFormat: DateCandidates.formats[index]) {
                dates &= ~(1 << UInt32(index))
            }
        }
    }

    private func accepts(_ field: FieldValue, _ type: AttributeType) -> Bool {
        if case .success = ValueCoercion.coerce(field, to: type, dateFormat: .iso8601) { return true }
        return false
    }

    /// The narrowest type that holds every value, date formats aside (see `dates`): boolean,
    /// the smallest integer type, double, date, uuid, string; nil when none holds them all (a
    /// JSON object next to text, say). A column without values is a string.
    var narrowest: InferredType? {
        if count == 0 { return .string }
        if boolean { return .boolean }
        if integer {
            for type in [AttributeType.int16, .int32, .int64]
            where type.integerRange!.contains(minimum) && type.integerRange!.contains(maximum) {
                return InferredType(type)
            }
        }
        if double { return .double }
        if dates != 0 { return .date }
        if uuid { return .uuid }
        return string ? .string : nil
    }

    /// `narrowest`, with dates read only by `format` (else the next type down).
    func narrowest(dateFormat format: Int?) -> InferredType? {
        guard narrowest == .date else { return narrowest }
        if let format, dates & (1 << UInt32(format)) != 0 { return .date }
        if uuid { return .uuid }
        return string ? .string : nil
    }
}

/// An inferred attribute type (the model's types that inference produces).
enum InferredType: Equatable {
    case boolean, int16, int32, int64, double, date, uuid, string

    init(_ type: AttributeType) {
        switch type {
        case .int16: self = .int16
        case .int32: self = .int32
        default: self = .int64
        }
    }

    var attributeType: AttributeType {
        switch self {
        case .boolean: .boolean
        case .int16: .int16
        case .int32: .int32
        case .int64: .int64
        case .double: .double
        case .date: .date
        case .uuid: .uuid
        case .string: .string
        }
    }

    var isInteger: Bool { attributeType.isInteger }
}

/// How a number is written, beyond what coercion checks.
struct NumberShape {
    /// `0123`, `-007`, `00.5`: a digit after a leading zero.
    var leadingZero = false
    /// Only digits (and a sign), too many for an int64: a double would lose digits.
    var oversizedInteger = false

    init(_ text: String) {
        var digits = 0, sawOther = false, index = 0
        var first: UInt8 = 0, second: UInt8 = 0
        var signSeen = false
        for byte in text.utf8 {
            if byte == 32 || byte == 9 { continue }
            if index == 0, byte == 43 || byte == 45, !signSeen {
                signSeen = true
                continue
            }
            if index == 0 { first = byte } else if index == 1 { second = byte }
            index += 1
            if byte >= 48 && byte <= 57 { digits += 1 } else { sawOther = true }
        }
        leadingZero = first == 48 && second >= 48 && second <= 57
        oversizedInteger = !sawOther && digits > 18 && Int64(text.filter { $0 != " " && $0 != "\t" }) == nil
    }

    /// For the commonest double's text, `[+-]?digits.digits` with at most 300 digits before the
    /// point, whether a double column holds it (without a leading zero: `0.5` yes, `01.5` no),
    /// as `init` and coercion would judge it (such text is always a finite double); nil for
    /// any other text, which they judge.
    static func plainDecimal(_ text: String) -> Bool? {
        var text = text
        return text.withUTF8 { plainDecimal($0) }
    }

    /// `plainDecimal` of text given as its UTF-8 bytes.
    static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        var index = 0
        if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 { index += 1 }
        let integerStart = index
        while index < bytes.count, bytes[index] &- 48 <= 9 { index += 1 }
        let integerDigits = index - integerStart
        guard integerDigits > 0, integerDigits <= 300, index < bytes.count, bytes[index] == 46 else { return nil }
        index += 1
        let fractionStart = index
        while index < bytes.count, bytes[index] &- 48 <= 9 { index += 1 }
        guard index == bytes.count, index > fractionStart else { return nil }
        return !(integerDigits > 1 && bytes[integerStart] == 48)
    }
}
