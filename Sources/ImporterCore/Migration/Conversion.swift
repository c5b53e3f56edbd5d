/// An explicit conversion declared on an attribute (`convert:`): how its value is made from
/// the attributes of the previous model version, for changes no inferred step covers.
///
/// It applies to the step into the version that declares it. A later version that keeps the
/// same declaration on the same attribute carries the value instead of converting it again.
package enum Conversion: Sendable, Equatable, CustomStringConvertible {
    /// The value of another attribute, as text read as the new type.
    case copy(from: String)
    /// Enumerated values mapped by their text; `otherwise` (if given) for any value not listed,
    /// else such an item fails the migration.
    case map(from: String, values: [String: String], otherwise: String?)
    /// Text read as a date with a pattern of `yyyy MM dd HH mm ss SSS` (UTC).
    case parseDate(from: String, pattern: String)
    /// Texts of several attributes joined with a literal separator; nulls are left out.
    case join([String], separator: String)
    /// The `index`-th (0-based) part of a text split at a literal separator; null if missing.
    case split(from: String, separator: String, index: Int)
    /// The same value for every item (null allowed).
    case constant(String?)

    /// The previous version's attributes the conversion reads.
    package var inputs: [String] {
        switch self {
        case .copy(let from), .map(let from, _, _), .parseDate(let from, _), .split(let from, _, _): return [from]
        case .join(let names, _): return names
        case .constant: return []
        }
    }

    package var description: String {
        switch self {
        case .copy(let from): return "copy \(from)"
        case .map(let from, let values, let otherwise):
            let pairs = values.sorted { $0.key < $1.key }.map { "\($0.key)→\($0.value)" }.joined(separator: ", ")
            return "map \(from) {\(pairs)}" + (otherwise.map { " otherwise \($0)" } ?? "")
        case .parseDate(let from, let pattern): return "parse \(from) as a date '\(pattern)'"
        case .join(let names, let separator): return "join \(names.joined(separator: ", ")) with '\(separator)'"
        case .split(let from, let separator, let index): return "part \(index) of \(from) split at '\(separator)'"
        case .constant(let text): return "constant \(text ?? "null")"
        }
    }

    /// Converts the inputs (values of `inputs`, in order) to a value of `type`.
    package func apply(_ values: [Value], to type: AttributeType) -> Result<Value, CoercionProblem> {
        switch self {
        case .copy:
            return Widening.convert(values[0], to: type)
        case .map(let from, let table, let otherwise):
            if values[0].isNull { return .success(.null) }
            let text = values[0].description
            guard let mapped = table[text] ?? otherwise else {
                return .failure(
                    CoercionProblem(
                        reason: .values,
                        message: "\(from) '\(text)' has no entry in convert.map; add it, or give convert.otherwise"))
            }
            return ValueCoercion.coerce(.text(mapped), to: type, dateFormat: .iso8601)
        case .parseDate(_, let pattern):
            guard case .string(let text) = values[0] else {
                return values[0].isNull ? .success(.null) : Widening.convert(values[0], to: type)
            }
            return ValueCoercion.coerce(.text(text), to: type, dateFormat: .pattern(pattern))
        case .join(_, let separator):
            let parts = values.filter { !$0.isNull }.map(\.description)
            if parts.isEmpty { return .success(.null) }
            return ValueCoercion.coerce(.text(parts.joined(separator: separator)), to: type, dateFormat: .iso8601)
        case .split(_, let separator, let index):
            if values[0].isNull { return .success(.null) }
            let parts = values[0].description.components(separatedBy: separator)
            guard index < parts.count else { return .success(.null) }
            return ValueCoercion.coerce(.text(parts[index]), to: type, dateFormat: .iso8601)
        case .constant(let text):
            guard let text else { return .success(.null) }
            return ValueCoercion.coerce(.text(text), to: type, dateFormat: .iso8601)
        }
    }
}
