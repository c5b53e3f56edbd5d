import Foundation

/// A record that passed validation: typed values by attribute position, and where it came from.
package struct PreparedRecord: Sendable {
    /// Index of the input file in the run (for reports).
    package var inputIndex: Int
    package var line: Int
    /// Offset of the record's first byte in its (decompressed) input.
    package var byteOffset: Int64
    /// Its text; empty when it was let go (see `textInInput`).
    package var raw: ArraySlice<UInt8>
    /// Its values by attribute position (unpacked on each read when they are packed).
    package var values: [Value] {
        get {
            switch storage {
            case .unpacked(let values): values
            case .packed(let packed): packed.values
            }
        }
        _modify {
            switch storage {
            case .unpacked(var values):
                // Held once, not twice, while it is changed: not copied.
                storage = .unpacked([])
                yield &values
                storage = .unpacked(values)
            case .packed(let packed):
                var values = packed.values
                yield &values
                storage = .packed(PackedValues(values, textCount: packed.textCount))
            }
        }
    }
    /// Its values as they are, or packed: a large document's records
    /// (docs/documents.md#large-documents). One reference either way: a record is copied as
    /// cheaply as an array.
    private var storage: Storage

    private enum Storage {
        case unpacked([Value])
        case packed(PackedValues)
    }
    /// The record's number in its input (0-based, rejected records included): resume's position.
    package var ordinal: Int

    package init(
        inputIndex: Int, line: Int, byteOffset: Int64, raw: ArraySlice<UInt8>, values: [Value], ordinal: Int = 0
    ) {
        self.ordinal = ordinal
        self.inputIndex = inputIndex
        self.line = line
        self.byteOffset = byteOffset
        self.raw = raw
        self.storage = .unpacked(values)
    }

    /// The value of the attribute at `index`: not all of them unpacked when they are packed.
    @inline(__always)
    package func value(at index: Int) -> Value {
        switch storage {
        case .unpacked(let values): values[index]
        case .packed(let packed): packed.value(at: index)
        }
    }

    /// The key held at `indices` (its own key, or the key a reference names), as
    /// `Value.key(_:at:)` reads it of `values`.
    @inline(__always)
    package func key(at indices: [Int]) -> Value { Value.key(at: indices, value(at:)) }

    /// Whether its values are held packed.
    package var isPacked: Bool { if case .packed = storage { true } else { false } }

    /// Holds its values packed: about a third of their memory, unpacked again on each read.
    package mutating func pack() {
        guard case .unpacked(let values) = storage else { return }
        storage = .packed(PackedValues(values))
    }

    /// Holds its values packed and lets its text go, which its input (a local file read as it
    /// is) or a temporary copy of its document holds (docs/documents.md#large-documents): a
    /// rejection that lists it reads it there again (`RecordText`).
    package mutating func packLettingTextGo() {
        guard case .unpacked(let values) = storage else { return }
        storage = .packed(PackedValues(values, textCount: raw.count))
        raw = []
    }

    /// Where its text is in its input, when it let it go.
    package var textInInput: Range<Int64>? {
        guard case .packed(let packed) = storage else { return nil }
        let count = packed.textCount
        return count > 0 ? byteOffset..<byteOffset + Int64(count) : nil
    }
}

extension [PreparedRecord] {
    /// The values of the record at `index`, read in place. For the stores' per-record loops: in
    /// another module, `records[index].values` copies the whole record first, retaining the
    /// text it shares with its chunk's other records.
    package func values(at index: Int) -> [Value] { self[index].values }
}

/// Per-record checks against the model: types, required, min/max, maxLength, pattern, values.
package struct RecordValidator: Sendable {
    package let entity: Entity
    private let dateFormat: DateFormat
    private let patterns: [NSRegularExpression?]
    /// Per attribute: whether a value that is not null has anything to be checked against.
    package let constrained: [Bool]
    /// Per attribute, its type and default: read per record from arrays of values, not from the
    /// attribute objects (each one read would be retained and released).
    private let types: [AttributeType]
    private let defaults: [Value?]
    /// The numbers the destination holds, when narrower than the attributes' types.
    private let numberLimits: StoreNumberLimits?

    package init(entity: Entity, dateFormat: DateFormat, numberLimits: StoreNumberLimits? = nil) {
        self.entity = entity
        self.dateFormat = dateFormat
        self.numberLimits = numberLimits
        self.patterns = entity.attributes.map { attribute in
            attribute.pattern.flatMap { try? NSRegularExpression(pattern: "^(?:\($0))$") }
        }
        self.constrained = entity.attributes.map { attribute in
            attribute.minimum != nil || attribute.maximum != nil || attribute.maxLength != nil
                || attribute.pattern != nil
                || attribute.allowedValues != nil || numberLimits?.applies(to: attribute.type) == true
        }
        types = entity.attributes.map(\.type)
        defaults = entity.attributes.map(\.defaultValue)
    }

    /// Typed values by attribute position, or the first problem found.
    package func validate(_ fields: [FieldValue]) -> Result<[Value], Rejection> {
        var values = [Value]()
        values.reserveCapacity(fields.count)
        for index in types.indices {
            var value: Value
            switch ValueCoercion.coerce(fields[index], to: types[index], dateFormat: dateFormat) {
            case .success(let coerced): value = coerced
            case .failure(let problem):
                let name = entity.attributes[index].name
                return .failure(
                    Rejection(stage: .validate, reason: problem.reason, field: name, "\(name): \(problem.message)"))
            }
            if let problem = finish(&value, at: index) { return .failure(problem) }
            values.append(value)
        }
        return .success(values)
    }

    /// What `validate` makes of one attribute's coerced value; nil when it rejects it.
    @inline(__always)
    package func accepted(_ value: Value, at index: Int) -> Value? {
        var value = value
        return finish(&value, at: index) == nil ? value : nil
    }

    /// Applies one attribute's default to its coerced value, and returns what its checks
    /// reject, if anything.
    @inline(__always)
    private func finish(_ value: inout Value, at index: Int) -> Rejection? {
        if value.isNull, let fallback = defaults[index] { value = fallback }
        guard value.isNull || constrained[index] else { return nil }
        return check(value, entity.attributes[index], patterns[index])
    }

    /// One attribute's value with its default applied and the attribute's checks passed (a
    /// migrated value).
    package func checked(_ value: Value, at index: Int) -> Result<Value, Rejection> {
        let attribute = entity.attributes[index]
        let value = value.isNull ? attribute.defaultValue ?? .null : value
        if let problem = check(value, attribute, patterns[index]) { return .failure(problem) }
        return .success(value)
    }

    private func check(_ value: Value, _ attribute: Attribute, _ pattern: NSRegularExpression?) -> Rejection? {
        func reject(_ reason: RejectReason, _ message: String) -> Rejection {
            Rejection(stage: .validate, reason: reason, field: attribute.name, "\(attribute.name): \(message)")
        }
        if value.isNull {
            if attribute.name == entity.hashKey {
                return reject(.required, "the hash key is missing; every \(entity.name) needs one")
            }
            return attribute.required ? reject(.required, "is required but missing or null") : nil
        }
        if attribute.minimum != nil || attribute.maximum != nil, let number = value.numeric {
            if let minimum = attribute.minimum, number < minimum {
                return reject(.range, "\(value) is below the minimum \(minimum.compactText)")
            }
            if let maximum = attribute.maximum, number > maximum {
                return reject(.range, "\(value) is above the maximum \(maximum.compactText)")
            }
        }
        if case .string(let text) = value {
            if let maxLength = attribute.maxLength, text.utf8.count > maxLength, text.count > maxLength {
                return reject(.maxLength, "is \(text.count) characters long; the limit is \(maxLength)")
            }
            if let pattern, pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
                return reject(.pattern, "'\(text)' does not match the pattern \(attribute.pattern!)")
            }
        }
        if let allowed = attribute.allowedValues, !allowed.contains(value.description) {
            return reject(.values, "'\(value)' is not one of \(allowed.joined(separator: ", "))")
        }
        if let numberLimits, let problem = numberLimits.problem(with: value) { return reject(.range, problem) }
        return nil
    }
}

extension Value {
    /// The value as a number for range checks (decimals to the nearest double).
    var numeric: Double? {
        switch self {
        case .integer(let number): return Double(number)
        case .double(let number): return number
        case .decimal(let text): return Double(text)
        default: return nil
        }
    }
}

extension Double {
    /// `90` rather than `90.0` in messages.
    var compactText: String {
        rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
