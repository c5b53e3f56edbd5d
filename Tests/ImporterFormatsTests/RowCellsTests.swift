@testable import ImporterCore
import TestSupport
import XCTest
@testable import ImporterFormats

/// A run reads a CSV row whose fields all pass straight from its cells (`RowCells`, `CellPlan`):
/// every row must come out as it does when its record is made, mapped and validated.
final class RowCellsTests: XCTestCase {
    let files = TempDirectory()

    static let model = """
        model: Cells
        version: 1
        entities:
          Reading:
            hashKey: id
            versionAttribute: version
            attributes:
              id:      { type: string }
              small:   { type: int16, required: true }
              big:     { type: int64 }
              price:   { type: double, min: 0 }
              ratio:   { type: float }
              at:      { type: date }
              flag:    { type: boolean }
              tag:     { type: string, maxLength: 3 }
              code:    { type: string, pattern: "[A-Z]+" }
              level:   { type: int32, default: "7" }
              kind:    { type: string, values: [a, b] }
              label:   { type: string }
              note:    { type: string }
              version: { type: int64 }
        """

    /// Cells of every kind a row may hold, good and bad, for each column.
    static let cells: [String: [String]] = [
        "id": ["r", "x-1", "", "NA", "\"q\"", "\"a,b\"", "é"],
        "small": [
            "5", "-5", "+5", "007", "-0", " 5", "5 ", "32767", "32768", "-32769", "5.0", "x", "", "NA", "\"NA\"",
        ],
        "big": ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "12a", "-", "+", "", "NA"],
        "price": ["1.5", "-1.5", "0", "1e3", ".5", "5.", "nan", "inf", "1234567890123456", "0.1", " 2", "", "NA"],
        "ratio": ["0.1", "0.25", "1e39", "3.4028235e38", "-2.5", "", "NA"],
        "at": [
            "2013-01-16T18:00:00Z", "2013-01-16", "2013-01-16 05:00:00", "2013-13-01", "2013-01-16T18:00:00.123+02:00",
            " 2013-01-16", "1700000000", "", "NA",
        ],
        "flag": ["true", "0", "yes", "maybe", "", "NA"],
        "tag": ["abc", "abcd", "", "NA", "\"a\"\"b\""],
        "code": ["AB", "ab", "", "NA"],
        "level": ["1", "", "NA", "x"],
        "kind": ["a", "b", "c", "", "NA"],
        "label": ["plain", "\"with, comma\"", "\"\"", "NA", "", "ü"],
        "extra": ["dropped", "", "NA"],
    ]
    static let header = [
        "id", "small", "big", "price", "ratio", "at", "flag", "tag", "code", "level", "kind", "label", "extra",
    ]

    func preparer(_ map: MapConfig, _ entity: Entity) throws -> RecordPreparer {
        try RecordPreparer(
            RecordPreparer.Recipe(inputIndex: 0, entity: entity, map: map, migration: nil, file: "p.yaml", line: nil))
    }

    /// Reads `text` both ways into one chunk each: record by record, and as a run reads a part
    /// (`RecordPreparer.prepareAll`, cells first). Returns the chunks and how many rows were taken as cells.
    func readBothWays(_ text: String, map: MapConfig, options: CSVOptions) throws -> (ParsedChunk, ParsedChunk, Int) {
        let entity = try ModelLoader.parse(text: Self.model, file: "m.yaml").entity(named: "Reading")!
        let path = files.write("rows.csv", text)
        var records = ParsedChunk(capacity: 0, handback: Handback())
        let byRecord = try preparer(map, entity)
        let reader = try CSVReader(path: path, options: options)
        while let record = try reader.next() { byRecord.prepare(record, into: &records) }
        var cells = ParsedChunk(capacity: 0, handback: Handback())
        let byCells = try preparer(map, entity)
        let taken = try byCells.prepareAll(of: CSVReader(path: path, options: options), into: &cells)
        return (records, cells, taken)
    }

    func assertSame(_ records: ParsedChunk, _ cells: ParsedChunk, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(cells.records.count, records.records.count, file: file, line: line)
        for (cell, record) in zip(cells.records, records.records) {
            XCTAssertEqual(cell.values, record.values, "line \(record.line)", file: file, line: line)
            XCTAssertEqual(cell.line, record.line, file: file, line: line)
            XCTAssertEqual(cell.byteOffset, record.byteOffset, file: file, line: line)
            XCTAssertEqual(cell.raw, record.raw, file: file, line: line)
            XCTAssertEqual(cell.ordinal, record.ordinal, file: file, line: line)
        }
        XCTAssertEqual(cells.rejects.map(\.ordinal), records.rejects.map(\.ordinal), file: file, line: line)
        XCTAssertEqual(
            cells.rejects.map(\.rejection.message), records.rejects.map(\.rejection.message), file: file, line: line)
        XCTAssertEqual(cells.rejects.map(\.key), records.rejects.map(\.key), file: file, line: line)
    }

    var map: MapConfig {
        var map = MapConfig()
        map.drop = ["extra"]
        map.rename = ["label": "note"]
        map.defaults = ["note": "none", "big": "42"]
        map.compute = [
            "label": try! FieldTemplate(parsing: "{id}/{small}-{{{at}}}"),
            "code": try! FieldTemplate(parsing: "{code}"),
        ]
        return map
    }

    /// Thousands of rows of random cells: every row prepares alike both ways, and the rows
    /// whose fields all pass are taken as cells.
    func testRowsReadAsCellsPrepareAsTheirRecordsDo() throws {
        var generator = SplitMix(seed: 46)
        var options = CSVOptions()
        options.nullValues = ["", "NA"]
        for round in 0..<4 {
            var text = Self.header.joined(separator: ",") + "\n"
            for row in 0..<1500 {
                // Mostly good cells (the first of each list), so that many rows pass whole.
                let cells = Self.header.map { name in
                    let pool = Self.cells[name]!
                    return Int.random(in: 0..<8, using: &generator) > 0
                        ? pool[row % 2 == 0 ? 0 : min(1, pool.count - 1)] : pool.randomElement(using: &generator)!
                }
                text += cells.joined(separator: ",") + (round == 1 ? "\r\n" : "\n")
                if row % 97 == 0 { text += "\n" }  // a blank line
                if row % 211 == 0 { text += "r,5\n" }  // too few fields
            }
            let (records, cells, taken) = try readBothWays(text, map: map, options: options)
            assertSame(records, cells)
            XCTAssertGreaterThan(records.rejects.count, 100)
            XCTAssertGreaterThan(taken, 200, "rows taken as cells in round \(round)")
            XCTAssertLessThanOrEqual(taken, records.records.count)
        }
    }

    /// Which rows are taken as cells: those whose fields all pass; not one with a field to
    /// reject, a doubled quote or a byte that is not ASCII, which comes out as its record does.
    func testRowsTakenAsCells() throws {
        var options = CSVOptions()
        options.nullValues = ["", "NA"]
        let good = "r,5,1,1.5,0.25,2013-01-16T18:00:00Z,true,abc,AB,1,a,plain,x"
        let rows = [
            good, "s, 5,1,1.5,0.25,2013-01-16,true,abc,AB,1,a,plain,x",
            "t,5,1,1.5,0.25,2013-01-16,true,\"a\"\"\",AB,1,a,p,x",
            "u,5,1,1.5,0.25,2013-01-16,true,abc,AB,1,a,é,x", "v,40000,1,1.5,0.25,2013-01-16,true,abc,AB,1,a,p,x",
            "w,NA,1,1.5,0.25,2013-01-16,true,abc,AB,1,a,p,x", "y,5,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA",
        ]
        let text = Self.header.joined(separator: ",") + "\n" + rows.joined(separator: "\n") + "\n"
        let (records, cells, taken) = try readBothWays(text, map: map, options: options)
        assertSame(records, cells)
        // Taken: the good row, the one with a space (read through `coerce`) and the one of
        // nulls (defaults); not: a doubled quote or a byte that is not ASCII (both pass as
        // records), and the two rejected ones.
        XCTAssertEqual(taken, 3)
        XCTAssertEqual(records.records.count, 5)
        XCTAssertEqual(records.rejects.count, 2)
        XCTAssertEqual(cells.records[0].values[0], .string("r"))
        XCTAssertEqual(cells.records[0].values[1], .integer(5))
        XCTAssertEqual(cells.records[0].values[3], .double(1.5))
        XCTAssertEqual(cells.records[0].values[5], .date(1_358_359_200_000))
        XCTAssertEqual(cells.records[0].values[11], .string("r/5-{2013-01-16T18:00:00Z}"))
        XCTAssertEqual(cells.records[4].values[2], .integer(42))  // the map's default
        XCTAssertEqual(cells.records[4].values[9], .integer(7))  // the model's default
        XCTAssertEqual(cells.records[4].values[11], .null)  // a template over a null field
        XCTAssertEqual(cells.records[4].values[12], .string("none"))
    }
}
