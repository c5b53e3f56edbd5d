import ImporterCore
import XCTest
@testable import ImporterFormats

/// Records longer than `maxRecordBytes` are rejected (reason `size`) with their first bytes as
/// raw text, the same whether an input is read whole or cut into parts, and reading goes on.
final class MaxRecordBytesTests: XCTestCase {
    let files = TempDirectory()
    let limit = 4096

    func testLongNDJSONLinesAreRejectedTheSameWholeAndInParts() throws {
        let long = "{\"id\":\"long\",\"text\":\"" + String(repeating: "x", count: 3 * limit) + "\"}\n"
        let text = "{\"id\":1}\n" + long + "{\"id\":2}\n{\"id\":3}\n" + long + long + "{\"id\":4}"
        let path = files.write("long.ndjson", text)
        let whole = try readAll(NDJSONReader(path: path, maxRecordBytes: limit))
        XCTAssertEqual(whole.map(\.line), [1, 2, 3, 4, 5, 6, 7])
        XCTAssertEqual(whole.map { $0.failure?.reason }, [nil, .size, nil, nil, .size, .size, nil])
        XCTAssertEqual(whole[1].raw.count, SourceRecord.excerptBytes)
        XCTAssertEqual(whole[1].byteOffset, 9)
        XCTAssertTrue(
            whole[1].failure!.message.contains("the record is \(long.utf8.count - 1) bytes"), whole[1].failure!.message)
        XCTAssertEqual(whole[6].fields["id"]!, "4")
        for maximum in [1, 2, 3, 100] {
            let splitter = try NDJSONReader(path: path, maxRecordBytes: limit)
            var parts: [SourceRecord] = []
            while let part = try splitter.nextPart(maximumRecords: maximum) { parts += try readAll(part) }
            XCTAssertEqual(parts.map(signature), whole.map(signature), "parts of \(maximum)")
        }
    }

    func testLongCSVRecordsAreRejectedTheSameWholeAndInParts() throws {
        let longLine = "9," + String(repeating: "y", count: 3 * limit) + "\n"
        let longQuote = "10,\"" + String(repeating: "z\n", count: limit) + "\"\n"
        let text = "id,name\n1,a\n" + longLine + "2,b\n" + longQuote + "3,c\n"
        let path = files.write("long.csv", text)
        let whole = try readAll(CSVReader(path: path, options: CSVOptions(), maxRecordBytes: limit))
        XCTAssertEqual(whole.first?.fields["name"]!, "a")
        XCTAssertEqual(whole[1].failure?.reason, .size)
        XCTAssertEqual(whole[1].line, 3)
        XCTAssertEqual(whole[2].fields["name"]!, "b")
        // A quoted field running past the limit: its first line is rejected, the lines after it
        // are read as records (each accounted), and `3,c` is read again.
        XCTAssertEqual(whole[3].failure?.reason, .size)
        XCTAssertTrue(whole[3].failure!.message.contains("is a quote never closed?"), whole[3].failure!.message)
        XCTAssertEqual(whole.last?.fields["name"]!, "c")
        for maximum in [1, 2, 3, 100] {
            let splitter = try CSVReader(path: path, options: CSVOptions(), maxRecordBytes: limit)
            var parts: [SourceRecord] = []
            while let part = try splitter.nextPart(maximumRecords: maximum) { parts += try readAll(part) }
            XCTAssertEqual(parts.map(signature), whole.map(signature), "parts of \(maximum)")
        }
    }

    func testALongJSONArrayElementIsRejectedAndTheNextOneRead() throws {
        let long = "{\"id\":\"long\",\"text\":\"" + String(repeating: "\\\"[{", count: limit) + "\"}"
        let records = try readAll(
            JSONArrayReader(
                path: files.write("long.json", "[{\"id\":1},\n" + long + ",\n{\"id\":2}]"),
                maxRecordBytes: limit))
        XCTAssertEqual(records.map { $0.failure?.reason }, [nil, .size, nil])
        XCTAssertEqual(records.map(\.line), [1, 2, 3])
        XCTAssertEqual(records[2].fields["id"]!, "2")
    }

    private func signature(_ record: SourceRecord) -> String {
        "\(record.line) \(record.byteOffset) \(Array(record.raw)) \(record.names) \(record.values) \(record.failure?.message ?? "ok")"
    }
}
