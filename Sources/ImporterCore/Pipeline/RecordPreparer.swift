/// The parsing stage's work on each record of one input: map, validate and migrate it into a
/// `PreparedRecord`, or reject it. Not to be shared between threads (see `copy`).
final class RecordPreparer {
    let inputIndex: Int
    /// The entity as the input's model version has it.
    private let entity: Entity
    private let mapper: RecordMapper
    private let dateFormat: DateFormat
    private let validator: RecordValidator
    private let migrator: RecordMigrator?

    init(inputIndex: Int, entity: Entity, mapper: RecordMapper, dateFormat: DateFormat, migration: MigrationPlan?) {
        self.inputIndex = inputIndex
        self.entity = entity
        self.mapper = mapper
        self.dateFormat = dateFormat
        validator = RecordValidator(entity: entity, dateFormat: dateFormat)
        migrator = migration.flatMap { RecordMigrator(plan: $0, entity: entity.name) }
    }

    private init(_ other: RecordPreparer) {
        inputIndex = other.inputIndex
        entity = other.entity.withOwnAttributes()
        mapper = other.mapper.copy(for: entity)
        dateFormat = other.dateFormat
        validator = RecordValidator(entity: entity, dateFormat: dateFormat)
        migrator = other.migrator  // immutable; shared, so a migrating input parses a little slower
    }

    /// A preparer of the same input for another thread, with objects of its own: two threads
    /// that retain and release the same objects for every record slow each other down.
    func copy() -> RecordPreparer { RecordPreparer(self) }

    /// Prepares `record`, the chunk's next one, and adds it to the chunk's records or rejects.
    func prepare(_ record: SourceRecord, into chunk: inout ParsedChunk) {
        let ordinal = chunk.count
        func reject(_ key: Value?, _ rejection: Rejection) {
            chunk.rejects.append(ParseReject(ordinal: ordinal, line: record.line, byteOffset: record.byteOffset, raw: record.raw,
                                             key: key, rejection: rejection))
        }
        if let failure = record.failure { return reject(nil, failure) }
        let fields: [FieldValue]
        switch mapper.map(record) {
        case .success(let mapped): fields = mapped
        case .failure(let rejection):
            return reject(record.names.firstIndex(of: entity.hashKey).flatMap { Self.keyValue(record.values[$0]) }, rejection)
        }
        var values: [Value]
        switch validator.validate(fields) {
        case .success(let validated): values = validated
        case .failure(let rejection): return reject(Self.keyValue(fields[entity.hashKeyIndex]), rejection)
        }
        if let migrator {
            switch migrator.migrate(values) {
            case .success(let migrated): values = migrated
            case .failure(let rejection): return reject(values[entity.hashKeyIndex], rejection)
            }
        }
        chunk.records.append(PreparedRecord(inputIndex: inputIndex, line: record.line, byteOffset: record.byteOffset, raw: record.raw,
                                            values: values, ordinal: ordinal))
    }

    /// The hash key as far as it can be read from unvalidated fields, for rejects.ndjson.
    private static func keyValue(_ field: FieldValue) -> Value? {
        switch field {
        case .text(let text), .number(let text): return .string(text)
        default: return nil
        }
    }
}

/// A record the parsing stage rejected, in its place among the chunk's records.
struct ParseReject {
    /// Its number in the chunk; the key stage makes it the number in the input.
    var ordinal: Int
    let line: Int
    let byteOffset: Int64
    let raw: ArraySlice<UInt8>
    /// The hash key as far as it could be read.
    let key: Value?
    let rejection: Rejection
}

/// Consecutive records of one input, parsed, mapped and validated: those that passed and those
/// that did not, each in input order. Their `ordinal`s count from the chunk's first record.
struct ParsedChunk {
    var records: [PreparedRecord] = []
    var rejects: [ParseReject] = []
    /// Where the records go once written: back to the thread that made them, to be freed there
    /// (memory freed on another thread than the allocating one contends on malloc's locks).
    let handback: Handback<[PreparedRecord]>

    init(capacity: Int, handback: Handback<[PreparedRecord]>) {
        records.reserveCapacity(capacity)
        self.handback = handback
    }

    /// The records read into the chunk.
    var count: Int { records.count + rejects.count }
}
