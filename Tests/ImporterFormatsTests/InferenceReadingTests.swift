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
