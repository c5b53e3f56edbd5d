import Foundation
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

    /// MongoDB Extended JSON wrappers are values in any JSON source (docs/documents.md#mongodb-values).
    func testMongoDBWrappersAreValuesInFlatRecordsToo() throws {
        let line =
            #"{"_id":{"$oid":"65f1a2b3c4d5e6f708192a01"},"n":{"$numberLong":"12"},"o":{"a":{"$oid":"x"}},"$k":1}"#
        let record = try XCTUnwrap(readAll(NDJSONReader(path: files.write("m.ndjson", line + "\n"))).first)
        XCTAssertNil(record.failure)
        XCTAssertEqual(record.values[0], .text("65f1a2b3c4d5e6f708192a01"))
        XCTAssertEqual(record.values[1], .number("12"))
        XCTAssertEqual(record.values[2], .composite(#"{"a":{"$oid":"x"}}"#), "an ordinary object holding one stays one")
        XCTAssertEqual(record.values[3], .number("1"))
    }

    func testNDJSONBadLinesAreRejectedAndReadingContinues() throws {
        let bytes =
            Array("{\"id\":1}\n{\"id\":2,\"na\n\n[1,2]\n42\r\n{\"id\":\"".utf8) + [0xFF]
            + Array("\"}\n{\"id\":3} trailing\n{\"id\":4}".utf8)
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

    /// Parts cut by `nextPart` and read on their own give exactly the records `next()` gives:
    /// lines, offsets, raw text, values and rejections, whatever the part size, across refills
    /// of the reader's window and a line longer than it, plain or gzip-compressed.
    func testNDJSONPartsReadOnTheirOwnGiveTheSameRecordsAsOneReader() throws {
        var long = ""
        for index in 0..<25_000 {  // more than one refill of the reader's window
            switch index % 11 {
            case 0: long += "{\"id\":\(index),\"note\":\"crlf \\\"quoted\\\"\"}\r\n"
            case 3: long += "\n"
            case 5: long += "{\"id\":\(index),\"broken\":\n"
            default: long += "{\"id\":\(index),\"comment\":\"comment number \(index)\",\"n\":\(index).5}\n"
            }
        }
        let huge = "{\"id\":\"huge\",\"text\":\"" + String(repeating: "x", count: 3 << 20) + "\"}"
        let inputs: [(String, [UInt8])] = [
            (
                "edges",
                Array("\u{FEFF}{\"id\":1}\r\n\n  \t\r\n\r\n{\"id\":2,\"na\n[1,2]\n42\r\n{\"id\":\"".utf8) + [0xFF]
                    + Array("\"}\n{\"id\":3} trailing\n\r\n{\"id\":4, \"s\":\"caf\\u00e9\"}".utf8)
            ),
            ("bom only", Array("\u{FEFF}\n{\"id\":1}\n\n".utf8)),
            ("no final newline", Array("{\"id\":1}\n{\"id\":2}".utf8)),
            ("broken last line", Array("{\"id\":1}\n{\"id\":".utf8)),
            ("long", Array(long.utf8)),
            ("huge line", Array(("{\"id\":0}\n" + huge + "\n{\"id\":1}\n" + huge).utf8)),
        ]
        for (name, bytes) in inputs {
            let plain = try writeWithGzippedCopy("\(name).ndjson", bytes)
            let whole = try readAll(NDJSONReader(path: plain)).map(signature)
            XCTAssertGreaterThan(whole.count, 0, name)
            if name == "edges" {
                let records = try readAll(NDJSONReader(path: plain))
                XCTAssertEqual(records.map(\.line), [1, 5, 6, 7, 8, 9, 11])
                XCTAssertEqual(Array(records.map(\.byteOffset).prefix(2)), [3, 21])
                XCTAssertEqual(
                    records.map { $0.failure?.reason },
                    [nil, .malformed, .malformed, .malformed, .encoding, .malformed, nil])
                XCTAssertEqual(records[3].rawText, "42")
                XCTAssertEqual(records[6].fields["s"]!, "café")
            }
            for path in [plain, plain + ".gz"] {
                XCTAssertEqual(try readAll(NDJSONReader(path: path)).map(signature), whole, "\(name), whole")
                for maximum in name == "long" ? [3, 4096] : [1, 2, 3, 4096] {
                    let splitter = try NDJSONReader(path: path)
                    let (parts, partCount) = try readParts(of: splitter, maximumRecords: maximum)
                    XCTAssertEqual(parts, whole, "\(path), parts of \(maximum)")
                    if path == plain { XCTAssertEqual(splitter.bytesRead, Int64(bytes.count), name) }
                    if maximum == 1 { XCTAssertGreaterThanOrEqual(partCount, whole.count, name) }
                }
                for maximumBytes in [1, 16] {
                    let (parts, partCount) = try readParts(
                        of: NDJSONReader(path: path), maximumRecords: 4096, maximumBytes: maximumBytes)
                    XCTAssertEqual(parts, whole, "\(path), parts of \(maximumBytes) bytes")
                    if maximumBytes == 1 { XCTAssertGreaterThanOrEqual(partCount, whole.count, name) }
                }
            }
        }
    }

    /// A JSON array cut into parts of whole elements gives the records, and the rejections, of
    /// one reader: breaks in the array, elements over `maxRecordBytes`, a truncated file, windows
    /// refilled mid-element.
    func testJSONArrayPartsReadOnTheirOwnGiveTheSameRecordsAsOneReader() throws {
        var long = "[\n"
        for index in 0..<25_000 {  // more than one refill of the reader's window
            if index > 0 { long += index % 7 == 0 ? ",\r\n" : ", " }
            switch index % 13 {
            case 0: long += "{\"id\":\(index),\"note\":\"a \\\"quoted\\\" ] } , text\"}"
            case 4: long += "{\"id\":\(index),\"nested\":{\"a\":[1,{\"b\":\"}\"}],\"c\":\"x\"}}"
            case 6: long += "[\(index)]"
            case 9: long += "{\"id\":\(index),\"bad\":tru}"
            default: long += "{\"id\":\(index),\"comment\":\"comment number \(index)\",\"n\":\(index).5}"
            }
        }
        long += "\n]\n"
        let oversized = "{\"id\":\"big\",\"text\":\"" + String(repeating: "y", count: 5000) + "\"}"
        let inputs: [(String, [UInt8], Int)] = [
            (
                "edges",
                Array("\u{FEFF}[ {\"id\":1} ,\n 42, {\"id\":\"".utf8) + [0xFF]
                    + Array("\"}, [1,2] ,\n\n {\"id\":3, \"s\":\"caf\\u00e9\"} ]\n".utf8), 1 << 20
            ),
            ("empty array", Array("  [ ]  ".utf8), 1 << 20),
            ("not an array", Array("{\"id\":1}".utf8), 1 << 20),
            ("trailing comma", Array("[{\"id\":1},{\"id\":2},]".utf8), 1 << 20),
            ("text after", Array("[{\"id\":1}] x".utf8), 1 << 20),
            ("missing comma", Array("[{\"id\":1} {\"id\":2}]".utf8), 1 << 20),
            ("truncated", Array("[{\"id\":1},{\"id\":2,\"a\":\"".utf8), 1 << 20),
            ("unclosed", Array("[{\"id\":1},{\"id\":2}".utf8), 1 << 20),
            ("oversized", Array(("[{\"id\":0}," + oversized + ",{\"id\":1}," + oversized + "]").utf8), 1000),
            ("long", Array(long.utf8), 1 << 20),
        ]
        for (name, bytes, maxRecordBytes) in inputs {
            let plain = try writeWithGzippedCopy("\(name).json", bytes)
            let whole = try readAll(JSONArrayReader(path: plain, maxRecordBytes: maxRecordBytes)).map(signature)
            if name == "edges" {
                let records = try readAll(JSONArrayReader(path: plain))
                XCTAssertEqual(records.map { $0.failure?.reason }, [nil, .malformed, .encoding, .malformed, nil])
                XCTAssertEqual(records.map(\.line), [1, 2, 2, 2, 4])
                XCTAssertEqual(records[4].fields["s"]!, "café")
            }
            if name == "long" {
                XCTAssertEqual(whole.count, 25_000)
                let rejected = (0..<25_000).filter { [6, 9].contains($0 % 13) }.count
                XCTAssertEqual(whole.filter { !$0.hasSuffix(" ok") }.count, rejected)
            }
            for path in [plain, plain + ".gz"] {
                let again = try readAll(JSONArrayReader(path: path, maxRecordBytes: maxRecordBytes)).map(signature)
                XCTAssertEqual(again, whole, "\(name), whole")
                for maximum in name == "long" ? [4096] : [1, 2, 3, 4096] {
                    let (parts, partCount) = try readParts(
                        of: JSONArrayReader(path: path, maxRecordBytes: maxRecordBytes), maximumRecords: maximum)
                    XCTAssertEqual(parts, whole, "\(path), parts of \(maximum)")
                    if maximum == 1 { XCTAssertEqual(partCount, whole.count, name) }
                }
                for maximumBytes in name == "long" ? [65_536] : [1, 64] {
                    let (parts, _) = try readParts(
                        of: JSONArrayReader(path: path, maxRecordBytes: maxRecordBytes), maximumRecords: 4096,
                        maximumBytes: maximumBytes)
                    XCTAssertEqual(parts, whole, "\(path), parts of \(maximumBytes) bytes")
                }
            }
        }
    }

    /// DynamoDB export lines cut into parts read as they do whole.
    func testDynamoDBItemPartsGiveTheSameRecords() throws {
        let text =
            "{\"Item\":{\"id\":{\"S\":\"a\"},\"n\":{\"N\":\"1.50\"}}}\n\n{\"id\":1}\r\n{\"Item\":{\"id\":{\"S\":\"b\"},\"ok\":{\"BOOL\":true}}}"
        let path = files.write("items.json", text)
        let whole = try readAll(NDJSONReader(path: path, layout: .dynamoDBItem)).map(signature)
        XCTAssertEqual(whole.count, 3)
        for maximum in [1, 2, 100] {
            let splitter = try NDJSONReader(path: path, layout: .dynamoDBItem)
            var parts: [String] = []
            while let part = try splitter.nextPart(maximumRecords: maximum) {
                parts += try readAll(part).map(signature)
            }
            XCTAssertEqual(parts, whole, "parts of \(maximum)")
        }
    }

    /// Writes `bytes` to the file `name` and a gzipped copy beside it (`name.gz`); returns the path.
    private func writeWithGzippedCopy(_ name: String, _ bytes: [UInt8]) throws -> String {
        let plain = files.write(name, bytes)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-k", plain]
        try gzip.run()
        gzip.waitUntilExit()
        return plain
    }

    /// The signatures of every record of every part `splitter` cuts, and how many parts it cut.
    private func readParts(of splitter: PartitionedRecordReader, maximumRecords: Int, maximumBytes: Int = .max) throws
        -> (signatures: [String], parts: Int)
    {
        var signatures: [String] = []
        var parts = 0
        while let part = try splitter.nextPart(maximumRecords: maximumRecords, maximumBytes: maximumBytes) {
            signatures += try readAll(part).map(signature)
            parts += 1
        }
        return (signatures, parts)
    }

    private func signature(_ record: SourceRecord) -> String {
        "\(record.line) \(record.byteOffset) \(record.raw.count) \(record.raw.hashValue) \(record.names) \(record.values) "
            + "\(record.failure.map { "\($0.reason) \($0.message)" } ?? "ok")"
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

    /// The end of an element and the line feeds in it, found over windows that grow by a few
    /// bytes at a time (as the reader refills): strings with escaped quotes and backslashes,
    /// brackets, commas and raw line feeds in them; nesting; scalars ended by a comma, a space,
    /// a line feed or the array's `]`.
    func testElementScanFindsEachElementsEndAndLineFeedsAcrossWindows() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "é", "\\\"", "\\\\", "{", "}", "[", "]", ",", " ", "\n", "\\n", ":"]
        func string() -> String {
            "\"" + (0..<Int.random(in: 0..<12, using: &generator)).map { _ in pieces.randomElement()! }.joined() + "\""
        }
        func space() -> String { ["", " ", "\n", " \n  "].randomElement()! }
        func value(_ depth: Int) -> String {
            switch Int.random(in: 0..<(depth < 3 ? 6 : 4), using: &generator) {
            case 0: return string()
            case 1: return String(Int.random(in: -100_000...100_000, using: &generator)) + ".5e3"
            case 2: return ["true", "false", "null"].randomElement()!
            case 3: return string()
            case 4:
                let members = (0..<Int.random(in: 0..<4, using: &generator)).map { _ in
                    space() + string() + space() + ":" + space() + value(depth + 1) + space()
                }
                return "{" + members.joined(separator: ",") + "}"
            default:
                let items = (0..<Int.random(in: 0..<4, using: &generator)).map { _ in
                    space() + value(depth + 1) + space()
                }
                return "[" + items.joined(separator: ",") + "]"
            }
        }
        for _ in 0..<2_000 {
            let element = value(Int.random(in: 0..<2, using: &generator) == 0 ? 0 : 2)
            let bytes = Array((element + [",", " ", "\n", "]"].randomElement()! + "{}").utf8)
            let length = element.utf8.count
            let lineFeeds = (0..<length).filter { bytes[$0] == 10 }
            var scan = ElementScan()
            var window = 0, cursor = 0
            var found: Int?
            var newlines: [Int] = []
            while found == nil, window < bytes.count {
                window = min(bytes.count, window + Int.random(in: 1...16, using: &generator))
                found = bytes[..<window].withUnsafeBufferPointer { scan.end(in: $0, from: cursor) }
                newlines += scan.takeNewlines()
                cursor = window
            }
            XCTAssertEqual(found, length, element)
            XCTAssertEqual(newlines, lineFeeds, element)
        }
    }
}
