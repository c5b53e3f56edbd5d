import ImporterCore

/// What the records of a JSON file hold at one field, over every record
/// (docs/infer.md#documents): values, objects (whose fields are read as dotted names), or
/// arrays of objects (whose elements are the records of a child entity). A field that holds
/// objects in one record and text in another is values: its object or array text is kept.
struct FieldShape: Sendable {
    enum Kind: Sendable {
        /// Only nulls, or not seen yet.
        case unseen
        case value
        case object
        case arrayOfObjects
    }

    private(set) var kind = Kind.unseen
    /// An object's fields, or an array's elements' fields.
    private(set) var fields: [String: FieldShape] = [:]
    /// Whether an array of objects held an element: `[]` everywhere is no child entity.
    private var heldElements = false

    /// The shape of `name` as classified, if any record held it.
    func existing(_ name: String) -> FieldShape? { fields[name] }

    /// Whether some field holds objects or arrays of objects: the records are documents.
    var holdsNesting: Bool { fields.values.contains { $0.settled == .object || $0.settled == .arrayOfObjects } }

    /// What the field was classified as once every record was seen.
    var settled: Kind { kind == .arrayOfObjects && !heldElements ? .value : kind }

    mutating func see(_ seen: Kind, elements: Int = 0) {
        kind = kind == .unseen || kind == seen ? seen : .value
        if elements > 0 { heldElements = true }
    }

    /// Learns the shapes of a record's fields (`reader` parses the nested text).
    mutating func observe(names: [String], values: [FieldValue], reader: NestedJSON) {
        for (name, value) in zip(names, values) {
            // Changed in place: a copy taken out of the dictionary would copy its fields too.
            fields[name, default: FieldShape()].observe(value, reader: reader)
        }
    }

    /// Learns the shape of one value of this field; a null teaches nothing.
    private mutating func observe(_ value: FieldValue, reader: NestedJSON) {
        switch value {
        case .null: return
        case .composite(let text):
            switch reader.nested(text) {
            case .object(let names, let values):
                see(.object)
                observe(names: names, values: values, reader: reader)
            case .objects(let elements):
                see(.arrayOfObjects, elements: elements.count)
                for element in elements { observe(names: element.names, values: element.values, reader: reader) }
            case .other:
                see(.value)
            }
        default: see(.value)
        }
    }

    /// Adds what the records of a later part of the file held: the shape one pass over both
    /// would have found.
    mutating func append(_ next: FieldShape) {
        if next.kind != .unseen { see(next.kind) }
        if next.heldElements { heldElements = true }
        for (name, shape) in next.fields { fields[name, default: FieldShape()].append(shape) }
    }
}

/// Parses a field's object or array text into fields as `importer run` reads them (the same
/// parser, MongoDB wrappers as values).
final class NestedJSON {
    enum Parsed {
        case object(names: [String], values: [FieldValue])
        case objects([(names: [String], values: [FieldValue])])
        /// Not an object or an array of objects (scalars, mixed, or malformed).
        case other
    }

    private let parser = JSONTextParser()

    func nested(_ text: String) -> Parsed {
        let bytes = Array(text.utf8)
        guard let first = bytes.first(where: { !isJSONSpace($0) }) else { return .other }
        if first == UInt8(ascii: "{") {
            let fields = bytes.withUnsafeBufferPointer { parser.parseRecord($0) }
            guard case .success(let (names, values)) = fields else { return .other }
            return .object(names: names, values: values)
        }
        guard first == UInt8(ascii: "[") else { return .other }
        let reader = JSONArrayReader(source: BytesSource(bytes), maxRecordBytes: Int.max)
        var elements: [(names: [String], values: [FieldValue])] = []
        while let element = try? reader.next() {
            // `[{"$oid": …}]` is an array of MongoDB values, not of objects.
            guard element.failure == nil, !element.names.allSatisfy({ $0.hasPrefix("$") }) else { return .other }
            elements.append((element.names, element.values))
        }
        return .objects(elements)
    }
}
