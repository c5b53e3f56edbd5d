/// How a source writes its dates (a pipeline source's `map.dateFormat`).
package enum DateFormat: Sendable, Equatable {
    /// ISO-8601, with or without fraction and offset (the default).
    case iso8601
    case epochSeconds
    case epochMillis
    /// A pattern of `yyyy MM dd HH mm ss SSS` and literal characters, read as UTC.
    case pattern(String)

    /// Parses a pipeline's `dateFormat:` value; nil if it names no known format.
    package init?(configuration text: String) {
        switch text {
        case "iso8601": self = .iso8601
        case "epochSeconds": self = .epochSeconds
        case "epochMillis": self = .epochMillis
        default:
            guard DatePattern.isValid(text) else { return nil }
            self = .pattern(text)
        }
    }

    /// Milliseconds since the epoch for a date field's text.
    func parse(_ text: String) -> Result<Int64, DateProblem> {
        switch self {
        case .iso8601: return ISO8601.parse(text)
        case .epochSeconds:
            guard let canonical = DecimalText.canonical(text), let seconds = Double(canonical), seconds.isFinite,
                abs(seconds) < 1e14
            else { return .failure(.notADate) }
            return ISO8601.checkedYear(Int64((seconds * 1000).rounded()))
        case .epochMillis:
            guard let millis = Int64(text) else { return .failure(.notADate) }
            return ISO8601.checkedYear(millis)
        case .pattern(let pattern): return DatePattern.parse(text, pattern: pattern)
        }
    }
}

/// Dates written to a fixed pattern such as `dd/MM/yyyy HH:mm`.
enum DatePattern {
    private static let fields = ["yyyy", "MM", "dd", "HH", "mm", "ss", "SSS"]

    static func isValid(_ pattern: String) -> Bool {
        pattern.contains("yyyy") && pattern.contains("MM") && pattern.contains("dd")
    }

    static func parse(_ text: String, pattern: String) -> Result<Int64, DateProblem> {
        var text = text
        return text.withUTF8 { parse(ByteScanner($0), pattern: pattern) }
    }

    private static func parse(_ scanner: ByteScanner, pattern: String) -> Result<Int64, DateProblem> {
        var scanner = scanner
        var values = ["yyyy": 0, "MM": 1, "dd": 1, "HH": 0, "mm": 0, "ss": 0, "SSS": 0]
        var rest = Substring(pattern)
        while !rest.isEmpty {
            if let field = fields.first(where: { rest.hasPrefix($0) }) {
                guard let number = scanner.number(digits: field.count) else { return .failure(.notADate) }
                values[field] = number
                rest = rest.dropFirst(field.count)
            } else {
                let literal = rest.unicodeScalars.first!
                guard scanner.skip(literal) else { return .failure(.notADate) }
                rest = rest.dropFirst()
            }
        }
        guard scanner.atEnd else { return .failure(.notADate) }
        return ISO8601.make(
            year: values["yyyy"]!, month: values["MM"]!, day: values["dd"]!, hour: values["HH"]!,
            minute: values["mm"]!, second: values["ss"]!, millis: values["SSS"]!)
    }
}
