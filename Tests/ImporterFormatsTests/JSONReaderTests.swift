import ImporterCore
import XCTest
@testable import ImporterFormats

final class JSONReaderTests: XCTestCase {
    let files = TempDirectory()

    func testNDJSONKeepsNumbersExactAndStringsDecoded() throws {
        let text = """
            {"id":"a","big":9007199254740993,"min":-9223372036854775808,"dec":12345678901234567.123456789,"s":"caf\\u00e9 \\ud83c\\udf55","n":null,"b":true,"o":{"x":[1,2]}}
            """
        let records = try readAll(NDJSONReader(path: files.write("a.ndjson", text + "\n")))
        XCTAssertEqual(records.count, 1)
        let record = records[0]
        XCTAssertEqual(record.values[record.names.firstIndex(of: "big")!], .number("9007199254740993"))
        XCTAssertEqual(record.values[record.names.firstIndex(of: "min")!], .number("-9223372036854775808"))
        XCTAssertEqual(record.values[record.names.firstIndex(of: "dec")!], .number("12345678901234567.123456789"))
        XCTAssertEqual(record.fields["s"]!, "café 🍕")
        XCTAssertEqual(record.fields["n"]!, nil)
        XCTAssertEqual(record.values[record.names.firstIndex(of: "b")!], .bool(true))
        XCTAssertEqual(record.values[record.names.firstIndex(of: "o")!], .composite("{\"x\":[1,2]}"))
    }

    func testNDJSONBadLinesAreRejectedAndReadingContinues() throws {
        let bytes = Array("{\"id\":1}\n{\"id\":2,\"na\n\n[1,2]\n42\r\n{\"id\":\"".utf8) + [0xFF] + Array("\"}\n{\"id\":3} trailing\n{\"id\":4}".utf8)
        let records = try readAll(NDJSONReader(path: files.write("b.ndjson", bytes)))
        XCTAssertEqual(records.map(\.line), [1, 2, 4, 5, 6, 7, 8])
        XCTAssertNil(records[0].failure)
        XCTAssertEqual(records[1].failure?.reason, .malformed)
        XCTAssertEqual(records[1].rawText, "{\"id\":2,\"na")
        XCTAssertTrue(records[2].failure!.message.contains("not a JSON object"))
        XCTAssertEqual(records[3].failure?.reason, .malformed)
        XCTAssertEqual(records[3].rawText, "42")
        XCTAssertEqual(records[4].failure?.reason, .encoding)
        XCTAssertEqual(records[5].failure?.reason, .malformed)
        XCTAssertEqual(records[6].fields["id"]!, "4")
    }

    func testJSONArrayIsReadElementByElementWithLines() throws {
        let text = """
            [
              {"id": "a",
               "note": "x, ] } \\" ["},
              {"id": "b"}, {"id": "c"}
            ]
            """
        let records = try readAll(JSONArrayReader(path: files.write("c.json", text)))
        XCTAssertEqual(records.map { $0.fields["id"]! }, ["a", "b", "c"])
        XCTAssertEqual(records.map(\.line), [2, 4, 4])
        XCTAssertEqual(records[0].fields["note"]!, "x, ] } \" [")
        XCTAssertTrue(records[0].rawText.hasPrefix("{\"id\": \"a\",\n"))
    }

    func testJSONArrayWithABadElementAndATruncatedEnd() throws {
        let text = "[{\"id\":1}, 7, {\"id\":2}, {\"id\":3, \"x\": "
        let records = try readAll(JSONArrayReader(path: files.write("d.json", text)))
        XCTAssertEqual(records.count, 4)
        XCTAssertNil(records[0].failure)
        XCTAssertEqual(records[1].failure?.reason, .malformed)
        XCTAssertNil(records[2].failure)
        XCTAssertEqual(records[3].failure?.reason, .malformed)
        XCTAssertTrue(records[3].failure!.message.contains("truncated"))
    }

    func testJSONThatIsNotAnArrayIsOneRejection() throws {
        let records = try readAll(JSONArrayReader(path: files.write("e.json", "{\"id\":1}\n")))
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(records[0].failure?.reason, .malformed)
    }

    func testLargeJSONArrayAcrossChunks() throws {
        var text = "[\n"
        for index in 0..<30_000 {
            text += "  {\"id\": \(index), \"comment\": \"a comment long enough to span several chunks \(index)\"},\n"
        }
        text += "  {\"id\": 30000}\n]\n"
        let records = try readAll(JSONArrayReader(path: files.write("f.json", text)))
        XCTAssertEqual(records.count, 30_001)
        XCTAssertTrue(records.allSatisfy { $0.failure == nil })
        XCTAssertEqual(records[29_999].line, 30_001)
        XCTAssertEqual(records[29_999].fields["id"]!, "29999")
    }
}
