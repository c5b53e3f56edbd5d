@testable import ImporterCore
import XCTest
@testable import ImporterFormats

/// How `model infer` reads files: the sniffer (format, delimiter, header), JSON sources, `--sample`,
/// the parallel pass, and errors that name the file.
final class InferenceReadingTests: XCTestCase {
    let fixture = InferenceFixture()

    func testDelimitersAreSniffed() throws {
        for (delimiter, text) in [
            (";", "id;price;name\n1;2,5;a\n2;3,75;b\n"), ("\t", "id\tname\n1\ta, b\n2\tc\n"),
            ("|", "id|name\n1|a;b\n2|c\n"),
        ] {
            let inferred = try fixture.infer("x.txt", text)
            XCTAssertEqual(inferred.source().csv.delimiter, UInt8(ascii: Unicode.Scalar(delimiter)!), text)
            XCTAssertEqual(inferred.source().format, .csv)
            XCTAssertEqual(inferred.entity().hashKey, "id")
        }
    }

    func testAFileWithoutHeaderGetsNumberedColumns() throws {
        let inferred = try fixture.infer("rows.csv", "1,alpha,2024-01-01\n2,beta,2024-01-02\n3,gamma,2024-01-03\n")
        XCTAssertEqual(inferred.types(), ["column1: int16!", "column2: string!", "column3: date!", "version: int64"])
        XCTAssertEqual(inferred.source().csv.header, false)
        XCTAssertEqual(inferred.source().csv.columns, ["column1", "column2", "column3"])
    }

    func testRepeatedOrEmptyHeaderNamesBecomeColumns() throws {
        let inferred = try fixture.infer("h.csv", "id,name,name,\n1,a,b,c\n2,d,e,f\n")
        XCTAssertEqual(inferred.source().csv.columns, ["id", "name", "name2", "column4"])
        XCTAssertEqual(
            inferred.types(), ["id: int16!", "name: string!", "name2: string!", "column4: string!", "version: int64"])
    }

    func testNDJSONWithMissingFieldsNullsBooleansAndObjects() throws {
        let inferred = try fixture.infer(
            "events.jsonl",
            """
            {"id": 1, "ok": true, "score": 1.5, "tags": ["a"], "at": "2024-01-01T00:00:00Z"}
            {"id": 2, "ok": false, "score": 2, "tags": null}
            {"id": 3, "ok": null, "score": 3, "at": "2024-01-03"}

            """)
        XCTAssertEqual(inferred.types(), ["id: int16!", "ok: boolean", "score: double!", "at: date", "version: int64"])
        XCTAssertEqual(inferred.source().format, .ndjson)
        XCTAssertEqual(inferred.source().map.drop, ["tags"])
        XCTAssertTrue(
            inferred.modelYAML.contains(
                #"# not an attribute: 'tags': no attribute type holds all its values (e.g. ["a"])"#), inferred.modelYAML
        )
    }

    func testAJSONArray() throws {
        let inferred = try fixture.infer(
            "people.json", #"[{"personId": "p1", "age": 30}, {"personId": "p2", "age": 41}]"#)
        XCTAssertEqual(inferred.types(), ["personId: string!", "age: int16!", "version: int64"])
        XCTAssertEqual(inferred.entity().name, "People")
    }

    func testSampleReadsOnlyTheFirstRecords() throws {
        let inferred = try fixture.infer("s.csv", "id,n\n1,1\n2,2\n3,x\n1,4\n", sample: 2)
        XCTAssertEqual(inferred.types(), ["id: int16!", "n: int16!", "version: int64"])
        XCTAssertEqual(inferred.entity().hashKey, "id")
        XCTAssertTrue(inferred.modelYAML.contains("# s.csv: the first 2 records"), inferred.modelYAML)
        XCTAssertTrue(inferred.modelYAML.contains("unique and never null in the first 2 records"), inferred.modelYAML)
    }

    func testOneThreadAndTwoThreadsProfileAlike() throws {
        // More records than one part, a type change, a null marker and a repeated key late in the file.
        var rows = ["id,n,label,maybe"]
        for index in 0..<30_000 {
            rows.append("\(index),\(index % 100),L\(index),\(index % 7 == 0 ? "NA" : String(index))")
        }
        rows.append("29999,100000,x,1")
        let inferred = try fixture.infer("big.csv", rows.joined(separator: "\n") + "\n")
        XCTAssertEqual(
            inferred.types(), ["id: int16!", "n: int32!", "label: string!", "maybe: int16", "version: int64"])
        XCTAssertEqual(inferred.entity().hashKey, "label")
        let path = fixture.files.path + "/big.csv"
        let one = try FileScanner.profile(path: path, parallel: false),
            two = try FileScanner.profile(path: path, parallel: true)
        XCTAssertEqual(one.records, 30_001)
        XCTAssertEqual(two.records, 30_001)
        XCTAssertEqual(one.columns.map(\.hashes), two.columns.map(\.hashes))
        XCTAssertEqual(one.columns.map(\.markerCounts), two.columns.map(\.markerCounts))
        XCTAssertEqual(one.columns.map { $0.types.narrowest }, two.columns.map { $0.types.narrowest })
        XCTAssertEqual(two.columns[0].hashes.last, KeyHash.of("29999").hash)
        XCTAssertEqual(two.columns[3].markerCounts, [0, 30_000 / 7 + 1, 0, 0])
    }

    func testRowsProfiledAsCellsProfileAsRecordsDo() throws {
        // The rows of a CSV file read as cells, on one thread and on two, profile as the records
        // made of them do: every kind of cell and row, over more rows than one part.
        var rows = ["id,price,flag,day,uuid,note,code"]
        let notes = [
            "plain", #""quoted, with a comma""#, #""he said ""hi""""#, "Ørsted", #""NA""#, "NA", "", #""""#, "NULL",
            #"\N"#, "a|b",
        ]
        for index in 0..<20_000 {
            let price = [String(Double(index) / 4), "NA", "0\(index % 10).5", "-\(index).25", "1e3"][index % 5]
            let flag = index < 15_000 ? String(index % 2) : ["yes", "no", "1"][index % 3]
            let day = index % 997 == 0 ? "2024-02-30" : "2024-06-\(String(format: "%02d", index % 28 + 1))"
            let uuid = String(format: "%08x-d9cb-469f-a165-70867728950e", index)
            let code = index % 11 == 0 ? #""007""# : String(index % 300)
            rows.append(
                [String(index), price, flag, day, uuid, notes[index % notes.count], code].joined(separator: ","))
        }
        rows.insert("1,2,3", at: 5_000)  // too few fields
        rows.insert("", at: 6_000)  // a blank line
        rows.insert(#"7,"x"y,1,2024-06-01,u,n,c"#, at: 7_000)  // text after a closing quote
        let path = fixture.write("cells.csv", rows.joined(separator: "\n") + "\n")
        // As records, on one thread: each record made, and its quoted markers read again.
        let (_, csv, _, _) = try FormatSniffer.sniffWithEstimate(path: path, format: nil)
        let options = try XCTUnwrap(csv)
        var one = FileProfile(path: path, format: .csv, csv: options)
        let reader = try CSVReader(path: path, options: options)
        while let record = try reader.next() {
            one.observe(record) { FileScanner.quotedMarkers(in: $0, options: options, path: path) }
        }
        XCTAssertEqual(one.records, 20_000)
        for two in [
            try FileScanner.profile(path: path, parallel: false), try FileScanner.profile(path: path, parallel: true),
        ] {
            compare(one, two)
        }
    }

    /// The profiles `one` and `two` made of the same file are the same.
    private func compare(_ one: FileProfile, _ two: FileProfile) {
        XCTAssertEqual(two.records, one.records)
        XCTAssertEqual(two.failures, 2)
        XCTAssertEqual(two.failures, one.failures)
        XCTAssertEqual(two.firstFailure, one.firstFailure)
        XCTAssertEqual(two.columnNames, one.columnNames)
        for (first, second) in zip(one.columns, two.columns) {
            XCTAssertTrue(second.hashes == first.hashes, "hashes of \(first.name)")
            XCTAssertEqual(second.markerCounts, first.markerCounts, first.name)
            XCTAssertEqual(second.nulls, first.nulls, first.name)
            XCTAssertEqual(second.textBytes, first.textBytes, first.name)
            XCTAssertEqual(second.hasPipe, first.hasPipe, first.name)
            // (The smallest and largest integer seen count only while every value is one: parts
            // joined keep those of the rows before their first other value.)
            let (a, b) = (first.types, second.types)
            XCTAssertEqual(
                [b.boolean, b.integer, b.double, b.uuid, b.string, b.booleanWord],
                [a.boolean, a.integer, a.double, a.uuid, a.string, a.booleanWord], first.name)
            XCTAssertEqual([Int(b.dates), b.count], [Int(a.dates), a.count], first.name)
            if a.integer { XCTAssertEqual([b.minimum, b.maximum], [a.minimum, a.maximum], first.name) }
        }
        XCTAssertEqual(two.columns[5].markerCounts, [1818, 1818, 1818, 1818])
        XCTAssertTrue(two.columns[5].hasPipe)
    }

    func testJSONRecordsWithChangingFieldsProfileAlikeInParts() throws {
        var lines: [String] = []
        for index in 0..<20_000 {
            lines.append(index < 15_000 ? #"{"id":\#(index),"a":"x"}"# : #"{"id":\#(index),"b":true}"#)
        }
        let path = fixture.write("late.ndjson", lines.joined(separator: "\n") + "\n")
        let one = try FileScanner.profile(path: path, parallel: false),
            two = try FileScanner.profile(path: path, parallel: true)
        XCTAssertEqual(one.columnNames, ["id", "a", "b"])
        XCTAssertEqual(two.columnNames, ["id", "a", "b"])
        XCTAssertEqual(one.columns.map(\.hashes), two.columns.map(\.hashes))
        XCTAssertEqual(two.columns.map(\.nulls), [0, 5_000, 15_000])
    }

    func testErrorsNameTheFileAndWhatToDo() throws {
        let empty = fixture.write("empty.csv", "")
        XCTAssertThrowsError(try FileScanner.profile(path: empty)) { error in
            XCTAssertEqual("\(error)", "\(empty): the file is empty (or blank); there is nothing to infer from")
        }
        let missing = fixture.files.path + "/missing.csv"
        XCTAssertThrowsError(try FileScanner.profile(path: missing)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(missing): cannot be read: cannot open: No such file"), "\(error)")
        }
        let binary = fixture.files.write("blob.bin", [0x50, 0x4B, 0x03, 0x04, 0x00, 0x00, 0x10])
        XCTAssertThrowsError(try FileScanner.profile(path: binary)) { error in
            XCTAssertTrue("\(error)".contains("the format is unknown and the file is not text"), "\(error)")
        }
        fixture.write("header.csv", "a,b\n")
        XCTAssertThrowsError(try fixture.infer(["header.csv"])) { error in
            XCTAssertTrue("\(error)".contains("header.csv: it holds no records to infer from"), "\(error)")
        }
    }
}
