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

    let names: [String]
    /// Per attribute, what fills it.
    private let sources: [Source]
    private let types: [AttributeType]
    /// Per attribute, whether a value that is not null has checks to pass (else it is taken as
    /// it is).
    private let constrained: [Bool]
    /// Per attribute, what a null or missing field becomes; nil when that is rejected.
    private var nullValues: [Value?] = []
    private let computed: [(template: FieldTemplate, places: [Int?])]
    private let validator: RecordValidator
    private let dateFormat: DateFormat
    /// Where computed texts are put together. Unchecked exclusivity: a plan is its preparer's,
    /// used by one thread, and no call reenters it.
    @exclusivity(unchecked) private var scratch: [UInt8] = []

    init(_ layout: MapLayout, names: [String], validator: RecordValidator, dateFormat: DateFormat) {
        self.names = names
        self.validator = validator
        self.dateFormat = dateFormat
        types = validator.entity.attributes.map(\.type)
        constrained = validator.constrained
        computed = layout.computed.map { ($0.template, $0.sources) }
        var sources = layout.places.map { $0 >= 0 ? Source.cell($0) : .absent }
        for (number, attribute) in layout.computed.enumerated() { sources[attribute.index] = .computed(number) }
        self.sources = sources
        nullValues = layout.defaults.indices.map { coerced(layout.defaults[$0] ?? .null, at: $0) }
    }

    /// The record's values of a row, by attribute position; nil when a field does not pass.
    func values(of row: RowCells) -> [Value]? {
        var values: [Value] = []
        values.reserveCapacity(sources.count)
        for index in sources.indices {
            switch sources[index] {
            case .cell(let place) where !row.spans[place].isNull:
                guard let value = value(of: row.cell(place), at: index) else { return nil }
                values.append(value)
            case .computed(let number):
                let places = computed[number].places
                let text = computed[number].template.render(using: &scratch) { field in
                    places[field].flatMap { row.spans[$0].isNull ? nil : row.cell($0) }
                }
                guard let value = text.map({ coerced(text: $0, at: index) }) ?? nullValues[index] else { return nil }
                values.append(value)
            case .cell, .absent:
                guard let value = nullValues[index] else { return nil }
                values.append(value)
            }
        }
        return values
    }

    /// The value of a field's bytes (ASCII, not a null marker); nil when it does not pass.
    @inline(__always)
    private func value(of bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Value? {
        if let plain = ValueCoercion.plainValue(of: bytes, as: types[index], dateFormat: dateFormat) {
            return constrained[index] ? validator.accepted(plain, at: index) : plain
        }
        let text = String(unsafeUninitializedCapacity: bytes.count) { buffer in
            guard let base = bytes.baseAddress else { return 0 }
            buffer.baseAddress!.initialize(from: base, count: bytes.count)
            return bytes.count
        }
        return coerced(text: text, at: index)
    }

    /// `coerced` of a text: a string attribute's value is the text as it is.
    @inline(__always)
    private func coerced(text: String, at index: Int) -> Value? {
        guard types[index] == .string else { return coerced(.text(text), at: index) }
        return constrained[index] ? validator.accepted(.string(text), at: index) : .string(text)
    }

    private func coerced(_ field: FieldValue, at index: Int) -> Value? {
        guard case .success(let value) = ValueCoercion.coerce(field, to: types[index], dateFormat: dateFormat) else {
            return nil
        }
        return validator.accepted(value, at: index)
    }
}
