import ImporterCore

/// Profiles a JSON or NDJSON file of documents for `importer model infer`
/// (docs/infer.md#documents). A first pass classifies every field of every record, at any
/// depth (`FieldShape`); a second profiles each entity's records: the documents themselves,
/// their nested objects' fields as dotted names (`currency.code`), and a `ChildProfile` of the
/// elements of each array of objects, nested as the arrays are.
enum DocumentProfiler {
    /// Bytes of documents a part holds (at least one document): documents are large records.
    static let partBytes = 1 << 20

    /// The profile of the documents `makeReader` reads (called once per pass); `root` is the
    /// file's profile before any record (its path, format, encoding and expected records). Nil
    /// when no field holds objects or arrays of objects. `parallel`: each pass cut into parts
    /// that two threads read (`PartProfiler`), joined in file order into what one thread finds.
    static func profile(
        root: FileProfile, sample: Int?, parallel: Bool, makeReader: () throws -> RecordReader
    ) throws -> FileProfile? {
        func partitioned() throws -> PartitionedRecordReader? {
            guard parallel, sample == nil else { return nil }
            return try makeReader() as? PartitionedRecordReader
        }
        var shape = FieldShape()
        var count = 0
        if let reader = try partitioned() {
            for part in try PartProfiler.map(reader, maximumBytes: partBytes, { try shapes(of: $0) }) {
                shape.append(part.shape)
                count += part.count
            }
        } else {
            (shape, count) = try shapes(of: makeReader(), sample: sample)
        }
        guard shape.holdsNesting else { return nil }
        var fresh = FileProfile(path: root.path, format: root.format, csv: nil)
        fresh.expectedRecords = max(root.expectedRecords, count)
        fresh.encoding = root.encoding
        fresh.sampled = sample.map { count >= $0 } ?? false
        if let reader = try partitioned() {
            let (path, format) = (root.path, root.format)
            let settled = shape
            let parts = try PartProfiler.map(reader, maximumBytes: partBytes) { part in
                var empty = FileProfile(path: path, format: format, csv: nil)
                empty.expectedRecords = PartProfiler.partSize
                let profiler = EntityProfiler(profile: empty, nested: NestedJSON())
                try profiler.observe(part, shape: settled)
                return profiler.finished()
            }
            var joined = fresh
            for part in parts { joined.appendDocuments(part) }
            return joined
        }
        let profiler = EntityProfiler(profile: fresh, nested: NestedJSON())
        try profiler.observe(makeReader(), upTo: sample, shape: shape)
        return profiler.finished()
    }

    /// The shapes of the fields of the records `reader` reads (the first `sample`), and how many it read.
    private static func shapes(of reader: RecordReader, sample: Int? = nil) throws -> (shape: FieldShape, count: Int) {
        let nested = NestedJSON()
        var shape = FieldShape()
        var count = 0
        while sample.map({ count < $0 }) ?? true, let record = try reader.next() {
            count += 1
            shape.observe(names: record.names, values: record.values, reader: nested)
        }
        return (shape, count)
    }
}

extension FileProfile {
    /// Adds the profile of the documents that follow in the file: the entity's records, its
    /// object fields and, array by array, its children's records (a child first seen in
    /// `next` is added after the others, as one pass would have met it).
    mutating func appendDocuments(_ next: FileProfile) {
        append(next)
        for field in next.objectFields where !objectFields.contains(field) { objectFields.append(field) }
        for child in next.children {
            if let index = children.firstIndex(where: { $0.arrayPath == child.arrayPath }) {
                children[index].profile.appendDocuments(child.profile)
            } else {
                children.append(child)
            }
        }
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

    /// Profiles the records `reader` reads (the first `sample`), `shape` their fields' shapes.
    func observe(_ reader: RecordReader, upTo sample: Int? = nil, shape: FieldShape) throws {
        var count = 0
        while sample.map({ count < $0 }) ?? true, let record = try reader.next() {
            count += 1
            if record.failure != nil {
                profile.observe(record)
                continue
            }
            observe(record, names: record.names, values: record.values, shape: shape)
        }
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
