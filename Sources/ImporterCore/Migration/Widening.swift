/// Core Data's widening type changes, which a migration infers: int16 → int32 → int64 →
/// decimal, float → double, and any type → string.
package enum Widening {
    /// True if every value of `old` is a value of `new` (the same type included).
    package static func isWidening(from old: AttributeType, to new: AttributeType) -> Bool {
        if old == new || new == .string { return true }
        switch (old, new) {
        case (.int16, .int32), (.int16, .int64), (.int32, .int64): return true
        case (.int16, .decimal), (.int32, .decimal), (.int64, .decimal): return true
        case (.float, .double): return true
        default: return false
        }
    }

    /// `value` as a value of `type`: directly for widenings, else through its text.
    package static func convert(_ value: Value, to type: AttributeType) -> Result<Value, CoercionProblem> {
        switch (value, type) {
        case (.null, _): return .success(.null)
        case (.string, .string), (.decimal, .decimal), (.double, .double), (.double, .float), (.date, .date),
            (.boolean, .boolean):
            return type == .float
                ? ValueCoercion.coerce(.text(value.description), to: type, dateFormat: .iso8601) : .success(value)
        case (.integer(let number), _) where type.isInteger:
            guard type.integerRange!.contains(number) else {
                return .failure(
                    CoercionProblem(reason: .range, message: "\(number) is out of the \(type.rawValue) range"))
            }
            return .success(value)
        case (.integer(let number), .decimal): return .success(.decimal(String(number)))
        case (_, .string): return .success(.string(value.description))
        default: return ValueCoercion.coerce(.text(value.description), to: type, dateFormat: .iso8601)
        }
    }
}
