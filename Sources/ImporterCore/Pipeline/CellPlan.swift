/// What a source's map and validator make of the fields of one CSV header, worked out once, so
/// that a row's record is read straight from its cells (`RowCells`) without a text made of each
/// field: whole numbers, doubles and ISO-8601 dates are read from their bytes. It gives the
/// values of a row all of whose fields pass, exactly those `RecordMapper` and
/// `RecordValidator` would give; any other row goes through them, and they say why it fails
/// (docs/values.md).
final class CellPlan {
    private enum Source {
        /// The field at a place in the names.
        case cell(Int)
        /// The computed attribute at a position in `computed`.
        case computed(Int)
        /// No field fills the attribute.
        case absent
    }

    /// How one attribute is read: what a row needs of it for a field that is not null, in one
    /// place and copied without a retain.
    private struct Step {
        let source: Source
        let type: AttributeType
        /// Whether a value that is not null has checks to pass (else it is taken as it is).
        let constrained: Bool
    }

    /// Per attribute, in order.
    private let steps: [Step]
    /// Per attribute, what a null or missing field becomes; nil when that is rejected.
    private let nullValues: [Value?]
    private let computed: [(template: FieldTemplate, places: [Int?])]
    private let validator: RecordValidator
    private let dateFormat: DateFormat

    init(_ layout: MapLayout, validator: RecordValidator, dateFormat: DateFormat) {
        self.validator = validator
        self.dateFormat = dateFormat
        computed = layout.computed.map { ($0.template, $0.sources) }
        var sources = layout.places.map { $0 >= 0 ? Source.cell($0) : .absent }
        for (number, attribute) in layout.computed.enumerated() { sources[attribute.index] = .computed(number) }
        let types = validator.entity.attributes.map(\.type)
        steps = sources.indices.map {
            Step(source: sources[$0], type: types[$0], constrained: validator.constrained[$0])
        }
        nullValues = sources.indices.map { index in
            guard
                case .success(let value) = ValueCoercion.coerce(
                    layout.defaults[index] ?? .null, to: types[index], dateFormat: dateFormat)
            else { return nil }
            return validator.accepted(value, at: index)
        }
    }

    /// The record's values of a row, by attribute position; nil when a field does not pass.
    func values(of row: RowCells) -> [Value]? {
        var values: [Value] = []
        values.reserveCapacity(steps.count)
        let passed = steps.withUnsafeBufferPointer { steps in
            for index in steps.indices {
                let step = steps[index]
                switch step.source {
                case .cell(let place) where !row.spans[place].isNull:
                    guard let value = value(of: row.cell(place), as: step, at: index) else { return false }
                    values.append(value)
                case .computed(let number):
                    let places = computed[number].places
                    let text = computed[number].template.render { field in
                        places[field].flatMap { row.spans[$0].isNull ? nil : row.cell($0) }
                    }
                    guard let value = text.map({ coerced(text: $0, as: step, at: index) }) ?? nullValues[index] else {
                        return false
                    }
                    values.append(value)
                case .cell, .absent:
                    guard let value = nullValues[index] else { return false }
                    values.append(value)
                }
            }
            return true
        }
        return passed ? values : nil
    }

    /// The value of a field's bytes (ASCII, not a null marker); nil when it does not pass.
    @inline(__always)
    private func value(of bytes: UnsafeBufferPointer<UInt8>, as step: Step, at index: Int) -> Value? {
        if let plain = ValueCoercion.plainValue(of: bytes, as: step.type, dateFormat: dateFormat) {
            return step.constrained ? validator.accepted(plain, at: index) : plain
        }
        return coerced(text: ASCIIText.string(bytes), as: step, at: index)
    }

    /// What `RecordValidator` makes of a text field: a string attribute's value is the text as
    /// it is.
    @inline(__always)
    private func coerced(text: String, as step: Step, at index: Int) -> Value? {
        guard step.type == .string else {
            guard case .success(let value) = ValueCoercion.coerce(.text(text), to: step.type, dateFormat: dateFormat)
            else { return nil }
            return validator.accepted(value, at: index)
        }
        return step.constrained ? validator.accepted(.string(text), at: index) : .string(text)
    }
}
