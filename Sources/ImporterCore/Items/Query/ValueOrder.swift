import Foundation

/// The order of values of one attribute, as the stores sort them: numbers as numbers, dates in
/// time, text and bytes by their bytes, false before true, null before any value.
package enum ValueOrder {
    package static func precedes(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return false
        case (.null, _): return true
        case (_, .null): return false
        case (.integer(let x), .integer(let y)), (.date(let x), .date(let y)): return x < y
        case (.double(let x), .double(let y)): return x < y
        case (.integer(let x), .double(let y)): return Double(x) < y
        case (.double(let x), .integer(let y)): return x < Double(y)
        case (.decimal, _), (_, .decimal): return decimal(a) < decimal(b)
        case (.boolean(let x), .boolean(let y)): return !x && y
        case (.string(let x), .string(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.binary(let x), .binary(let y)): return x.lexicographicallyPrecedes(y)
        default: return a.description < b.description
        }
    }

    /// A number as a `Decimal` (0 for anything else).
    private static func decimal(_ value: Value) -> Decimal {
        switch value {
        case .decimal(let text): return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? 0
        case .integer(let number): return Decimal(number)
        case .double(let number): return Decimal(number)
        default: return 0
        }
    }

    static func same(_ a: Value, _ b: Value) -> Bool { !precedes(a, b) && !precedes(b, a) }
}
