import ImporterCore

/// Profiles a JSON or NDJSON file of documents for `importer model infer`
/// (docs/infer.md#documents). A first pass classifies every field of every record, at any
/// depth (`FieldShape`); a second profiles each entity's records: the documents themselves,
/// their nested objects' fields as dotted names (`currency.code`), and a `ChildProfile` of the
/// elements of each array of objects, nested as the arrays are.
enum DocumentProfiler {
    /// The profile of the documents `makeReader` reads (called once per pass); `root` is the
    /// file's profile before any record (its path, format, encoding and expected records). Nil
    /// when no field holds objects or arrays of objects.
    static func profile(root: FileProfile, sample: Int?, makeReader: () throws -> RecordReader) throws
        -> FileProfile?
    {
        let nested = NestedJSON()
        let shape = FieldShape()
        let count = try read(makeReader(), sample: sample) { record in
            shape.observe(names: record.names, values: record.values, reader: nested)
        }
        guard shape.holdsNesting else { return nil }
        var fresh = FileProfile(path: root.path, format: root.format, csv: nil)
        fresh.expectedRecords = max(root.expectedRecords, count)
        fresh.encoding = root.encoding
        fresh.sampled = sample.map { count >= $0 } ?? false
        let profiler = EntityProfiler(profile: fresh, nested: nested)
        try read(makeReader(), sample: sample) { record in
            if record.failure != nil { return profiler.profile.observe(record) }
            profiler.observe(record, names: record.names, values: record.values, shape: shape)
        }
        return profiler.finished()
    }

    /// Reads the records (the first `sample`); returns how many.
    @discardableResult
    private static func read(_ reader: RecordReader, sample: Int?, _ body: (SourceRecord) -> Void) throws -> Int {
        var count = 0
        while sample.map({ count < $0 }) ?? true, let record = try reader.next() {
            count += 1
            body(record)
        }
        return count
    }
}

/// The profile of one entity's records (the documents, or one array's elements) and of the
/// arrays under them.
private final class EntityProfiler {
    var profile: FileProfile
    let nested: NestedJSON
    /// The arrays of objects under these records, by dotted path, in the order first seen.
    private var children: [(path: [String], profiler: EntityProfiler)] = []
    private var childIndex: [[String]: Int] = [:]
    private var objectFields: [String] = []

    init(profile: FileProfile, nested: NestedJSON) {
        self.profile = profile
        self.nested = nested
    }

    /// Profiles one record, `names` and `values` its fields, `shape` theirs.
    func observe(_ record: SourceRecord, names: [String], values: [FieldValue], shape: FieldShape) {
        var flat = SourceRecord(
            line: record.line, byteOffset: record.byteOffset, raw: [], names: [], values: [])
        flatten(names, values, shape: shape, prefix: [], into: &flat, of: record)
        profile.observe(flat)
    }

    private func flatten(
        _ names: [String], _ values: [FieldValue], shape: FieldShape, prefix: [String], into flat: inout SourceRecord,
        of record: SourceRecord
    ) {
        for (name, value) in zip(names, values) {
            let member = shape.existing(name)
            // A null object or array: no fields, no elements.
            if value == .null, let member, member.settled != .value, member.settled != .unseen { continue }
            guard case .composite(let text) = value, let member, member.settled != .value else {
                append(prefix + [name], value, to: &flat)
                continue
            }
            switch nested.nested(text) {
            case .object(let names, let values) where member.settled == .object:
                if prefix.isEmpty && !objectFields.contains(name) { objectFields.append(name) }
                flatten(names, values, shape: member, prefix: prefix + [name], into: &flat, of: record)
            case .objects(let elements) where member.settled == .arrayOfObjects:
                let child = self.child(at: prefix + [name])
                for element in elements {
                    child.observe(record, names: element.names, values: element.values, shape: member)
                }
            default:
                append(prefix + [name], value, to: &flat)
            }
        }
    }

    /// Adds a field; a dotted name the record already has (a key `"a.b"` beside `"a": {"b": …}`)
    /// is read once, as `importer run` reads it.
    private func append(_ path: [String], _ value: FieldValue, to flat: inout SourceRecord) {
        let name = path.joined(separator: ".")
        if name.utf8.contains(UInt8(ascii: ".")), flat.names.contains(name) { return }
        flat.names.append(name)
        flat.values.append(value)
    }

    private func child(at path: [String]) -> EntityProfiler {
        if let index = childIndex[path] { return children[index].profiler }
        var empty = FileProfile(path: profile.path, format: profile.format, csv: nil)
        empty.sampled = profile.sampled
        let child = EntityProfiler(profile: empty, nested: nested)
        childIndex[path] = children.count
        children.append((path, child))
        return child
    }

    /// The profile with its object fields and the profiles of its arrays.
    func finished() -> FileProfile {
        var finished = profile
        finished.objectFields = objectFields
        finished.children = children.map { ChildProfile(arrayPath: $0.path, profile: $0.profiler.finished()) }
        return finished
    }
}
