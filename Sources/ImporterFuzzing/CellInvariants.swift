import ImporterCore
import ImporterFormats

/// A run reads a CSV row whose fields all pass straight from its cells (docs/values.md): on
/// any input, each row must come out as it does when its record is made, mapped and
/// validated — the same values, or the same rejection.
enum CellInvariants {
    /// Attributes of the types read from bytes and of the others, with checks and defaults,
    /// and a computed one.
    static let entity = try! ModelLoader.parse(
        text: """
            model: Cells
            version: 1
            entities:
              Row:
                hashKey: id
                versionAttribute: version
                attributes:
                  id: { type: string }
                  small: { type: int16, required: true }
                  big: { type: int64, default: "-1" }
                  price: { type: double, min: 0 }
                  ratio: { type: float }
                  at: { type: date }
                  flag: { type: boolean }
                  tag: { type: string, maxLength: 3 }
                  amount: { type: decimal }
                  label: { type: string }
                  version: { type: int64 }
            """, file: "fuzz.yaml"
    ).entity(named: "Row")!

    static func check(_ bytes: [UInt8]) throws {
        var options = CSVOptions()
        options.header = false
        options.columns = ["id", "small", "big", "price", "ratio", "at", "flag", "tag", "amount", "extra"]
        options.nullValues = ["", "NA"]
        var map = MapConfig()
        map.drop = ["extra"]
        map.defaults = ["tag": "x"]
        map.compute = ["label": try! FieldTemplate(parsing: "{id}-{small}/{extra}")]
        let recipe = RecordPreparer.Recipe(
            inputIndex: 0, entity: entity, map: map, migration: nil, file: "fuzz.yaml", line: nil)
        let byRecord = try RecordPreparer(recipe), byCells = try RecordPreparer(recipe)
        var records = ParsedChunk(capacity: 0, handback: Handback())
        var cells = ParsedChunk(capacity: 0, handback: Handback())
        let reader = CSVReader(source: BytesSource(bytes), name: "fuzz.csv", options: options)
        while let record = try reader.next() {
            byRecord.prepare(record, into: &records)
            guard records.count <= bytes.count + 2 else { throw FuzzViolation(description: "reading does not end") }
        }
        // As a run reads a part. Rows are found as record by record, which ended: a reading that
        // did not would be a hang, which the fuzzer reports too.
        try byCells.prepareAll(
            of: CSVReader(source: BytesSource(bytes), name: "fuzz.csv", options: options), into: &cells)
        for (cell, record) in zip(cells.records, records.records)
        where cell.values != record.values || cell.line != record.line || cell.byteOffset != record.byteOffset
            || cell.raw != record.raw || cell.ordinal != record.ordinal
        {
            throw FuzzViolation(
                description:
                    "line \(record.line) read as cells gives \(cell.values) at line \(cell.line), as a record \(record.values)"
            )
        }
        guard cells.records.count == records.records.count,
            cells.rejects.map(\.ordinal) == records.rejects.map(\.ordinal),
            cells.rejects.map(\.rejection.message) == records.rejects.map(\.rejection.message)
        else {
            throw FuzzViolation(
                description:
                    "read as cells: \(cells.records.count) records and \(cells.rejects.count) rejects; as records: \(records.records.count) and \(records.rejects.count)"
            )
        }
    }
}
