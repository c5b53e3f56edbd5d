/// Prepares each record of one input: maps, validates and migrates it into a `PreparedRecord`,
/// or rejects it (the work of the threads that parse, not a stage of its own). Each parsing
/// thread has its own (made from a `RecordPreparer.Recipe`): two threads that retain and
/// release the same objects for every record slow each other down.
package final class RecordPreparer {
    /// What a thread needs to make its own preparer for an input.
    package struct Recipe: Sendable {
        let inputIndex: Int
        /// The entity as the input's model version has it.
        let entity: Entity
        let map: MapConfig
        let migration: MigrationPlan?
        /// Where the source is declared, for errors of its map.
        let file: String
        let line: Int?
        /// The numbers the destination holds, when narrower than the entity's types.
        let numberLimits: StoreNumberLimits?

        package init(
            inputIndex: Int, entity: Entity, map: MapConfig, migration: MigrationPlan?, file: String, line: Int?,
            numberLimits: StoreNumberLimits? = nil
        ) {
            (self.inputIndex, self.entity, self.map, self.migration) = (inputIndex, entity, map, migration)
            (self.file, self.line, self.numberLimits) = (file, line, numberLimits)
        }
    }

    let inputIndex: Int
    let entity: Entity
    private let mapper: RecordMapper
    private let validator: RecordValidator
    private let dateFormat: DateFormat
    private let migrator: RecordMigrator?

    /// The preparer of `recipe`'s input, with objects of its own. Throws `ConfigurationError` for
    /// a map that does not fit the entity (checked before a run starts).
    package init(_ recipe: Recipe) throws {
        inputIndex = recipe.inputIndex
        let entity = recipe.entity.withOwnAttributes()
        self.entity = entity
        mapper = try RecordMapper(entity: entity, map: recipe.map, file: recipe.file, line: recipe.line)
        dateFormat = recipe.map.dateFormat
        validator = RecordValidator(entity: entity, dateFormat: dateFormat, numberLimits: recipe.numberLimits)
        migrator = recipe.migration.flatMap { RecordMigrator(plan: $0, entity: entity.name) }
    }

    /// Prepares `record`, the chunk's next one, and adds it to the chunk's records or rejects.
    package func prepare(_ record: SourceRecord, into chunk: inout ParsedChunk) {
        let ordinal = chunk.count
        switch outcome(of: record, ordinal: ordinal, keepingFields: false) {
        case .prepared(let prepared, _): chunk.records.append(prepared)
        case .rejected(let key, let rejection): chunk.reject(record, ordinal: ordinal, key: key, rejection)
        }
    }

    /// Prepares every record `reader` reads into the chunk: a CSV reader's rows whose fields all
    /// pass straight from their cells, every other record mapped and validated. Returns how many
    /// rows were taken as cells.
    @discardableResult
    package func prepareAll(of reader: RecordReader, into chunk: inout ParsedChunk) throws -> Int {
        guard let rows = reader as? CellRecordReader else {
            while let record = try reader.next() { prepare(record, into: &chunk) }
            return 0
        }
        var taken = 0
        while let read = try rows.nextRow({ prepare($0, into: &chunk) }) {
            switch read {
            case .cells: taken += 1
            case .record(let record): prepare(record, into: &chunk)
            }
        }
        return taken
    }

    /// Prepares a row given as cells, the chunk's next record, when all its fields pass: adds it
    /// to the chunk's records and returns true. A row it does not take goes to
    /// `prepare(_:into:)` as its record, which says why it fails.
    package func prepare(_ row: RowCells, into chunk: inout ParsedChunk) -> Bool {
        guard let plan = cellPlan(for: row.names), let values = plan.values(of: row) else { return false }
        chunk.records.append(
            PreparedRecord(
                inputIndex: inputIndex, line: row.line, byteOffset: row.byteOffset, raw: row.raw, values: values,
                ordinal: chunk.count))
        return true
    }

    /// The plan for rows with a header of `names` (the names of a part's rows are one array);
    /// nil when its records must be mapped field by field, or are migrated.
    private func cellPlan(for names: [String]) -> CellPlan? {
        if let cells, RecordMapper.sameArray(cells.names, names) { return cells.plan }
        // Another part's names: the same header as a rule, then kept as the array to compare.
        if let cells, cells.names == names {
            self.cells = (names, cells.plan)
            return cells.plan
        }
        let plan =
            migrator == nil
            ? mapper.layout(for: names).map { CellPlan($0, validator: validator, dateFormat: dateFormat) }
            : nil
        cells = (names, plan)
        return plan
    }

    private var cells: (names: [String], plan: CellPlan?)?

    /// What becomes of a record.
    enum Outcome {
        /// Its record, and its fields as the map made them (a document's children take their
        /// parent's key from them).
        case prepared(PreparedRecord, fields: [FieldValue])
        /// Its key as far as it could be read, and why.
        case rejected(key: Value?, Rejection)
    }

    /// The buffer records are mapped into when their fields are not kept: not one array
    /// allocated and freed per record.
    private var mapped: [FieldValue] = []

    /// Maps, validates and migrates `record`, numbered `ordinal` in its chunk; `assigning`
    /// fields are set after the map (a document's child takes its parent's key and its position).
    /// Without `keepingFields`, the outcome's fields are empty.
    func outcome(
        of record: SourceRecord, ordinal: Int, assigning: [(index: Int, field: FieldValue)] = [],
        keepingFields: Bool = true
    ) -> Outcome {
        if let failure = record.failure { return .rejected(key: nil, failure) }
        var fields: [FieldValue] = []
        swap(&fields, &mapped)
        defer { if !keepingFields { swap(&fields, &mapped) } }
        if let rejection = mapper.map(record, into: &fields) {
            return .rejected(
                key: key { name in
                    if let index = entity.attributeIndex[name],
                        let assigned = assigning.first(where: { $0.index == index })
                    {
                        return Self.keyValue(assigned.field)
                    }
                    return record.names.firstIndex(of: name).flatMap { Self.keyValue(record.values[$0]) }
                },
                rejection)
        }
        for (index, field) in assigning { fields[index] = field }
        var values: [Value]
        switch validator.validate(fields) {
        case .success(let validated): values = validated
        case .failure(let rejection):
            return .rejected(key: key { Self.keyValue(fields[entity.attributeIndex[$0]!]) }, rejection)
        }
        if let migrator {
            switch migrator.migrate(values) {
            case .success(let migrated): values = migrated
            case .failure(let rejection): return .rejected(key: entity.key(of: values), rejection)
            }
        }
        return .prepared(
            PreparedRecord(
                inputIndex: inputIndex, line: record.line, byteOffset: record.byteOffset, raw: record.raw,
                values: values, ordinal: ordinal),
            fields: keepingFields ? fields : [])
    }

    /// The fields `record` maps to, with `assigning` set, at `indices`; nil when its map rejects
    /// it. For a document's object read in part: its children come before its end.
    func mappedFields(
        of record: SourceRecord, at indices: [Int], assigning: [(index: Int, field: FieldValue)]
    ) -> [FieldValue]? {
        guard case .success(var fields) = partialMapper.map(record) else { return nil }
        for (index, field) in assigning { fields[index] = field }
        return indices.map { fields[$0] }
    }

    /// The map of records read in part, with a cache of names of its own.
    private lazy var partialMapper = mapper.copy(for: entity)

    /// The hash key as far as it can be read from unvalidated fields, for rejects.ndjson.
    /// A rejected record's key as far as it could be read, from each key attribute's text.
    private func key(_ text: (String) -> Value?) -> Value? {
        guard let hash = text(entity.hashKey) else { return nil }
        guard let rangeKey = entity.rangeKey else { return hash }
        return text(rangeKey).map { .pair(hash, $0) }
    }

    private static func keyValue(_ field: FieldValue) -> Value? {
        switch field {
        case .text(let text), .number(let text): return .string(text)
        default: return nil
        }
    }
}
