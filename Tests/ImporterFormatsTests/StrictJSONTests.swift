import ImporterCore
import XCTest
@testable import ImporterFormats

/// Strict JSON where the corpus test does not reach: DynamoDB export lines, nesting far past the
/// limit in process, and numbers kept as their exact text.
final class StrictJSONTests: XCTestCase {
    let files = TempDirectory()

    func testDynamoDBExportLinesAreStrictToo() throws {
        let lines = [
            #"{"Item":{"id":{"S":"a"},"n":{"N":"1.50"}}}"#,
            #"{"Item":{"id":{"S":"b"},"id":{"S":"c"}}}"#,
            #"{"Item":{"id":{"S":"d"},}}"#,
            #"{"Item":{"id":{"S":'e'}}}"#,
            #"{"Item":{"id":{"S":"f"}}} // comment"#,
            #"{"Item":{"id":{"N":NaN}}}"#,
        ]
        let records = try readAll(
            NDJSONReader(path: files.write("d.json", lines.joined(separator: "\n")), layout: .dynamoDBItem))
        XCTAssertEqual(
            records.map { $0.failure?.reason }, [nil, .malformed, .malformed, .malformed, .malformed, .malformed])
        XCTAssertEqual(records[0].fields["n"]!, "1.50")
        XCTAssertTrue(records[1].failure!.message.contains(#"the key "id" appears twice"#), records[1].failure!.message)
    }

    /// A key twice in a nested object is found whether the object is short (its keys compared in
    /// turn) or long (in a set), and also when spelled with an escape; the same keys in sibling
    /// objects are not repeats.
    func testAKeyTwiceInANestedObjectIsFoundInShortAndLongObjects() throws {
        func object(_ keys: [String]) -> String { "{" + keys.map { "\"\($0)\":1" }.joined(separator: ",") + "}" }
        let many = (0..<40).map { "k\($0)" }
        let lines = [
            #"{"id":1,"x":"# + object(["a", "b", "a"]) + "}",
            #"{"id":2,"x":"# + object(many + ["k3"]) + "}",
            #"{"id":3,"x":"# + object(["a", #"\u0061"#]) + "}",
            #"{"id":4,"x":["# + object(many) + "," + object(many) + "]}",
            #"{"id":5,"x":"# + object(["a", "b"]) + "}",
        ]
        let records = try readAll(NDJSONReader(path: files.write("keys.ndjson", lines.joined(separator: "\n"))))
        XCTAssertEqual(records.map { $0.failure?.reason }, [.malformed, .malformed, .malformed, nil, nil])
        XCTAssertTrue(records[0].failure!.message.contains(#"the key "a" appears twice"#), records[0].failure!.message)
        XCTAssertTrue(records[1].failure!.message.contains(#"the key "k3" appears twice"#), records[1].failure!.message)
        XCTAssertTrue(records[2].failure!.message.contains(#"the key "a" appears twice"#), records[2].failure!.message)
    }

    func testNestingFarPastTheLimitIsARejectionNotAStackOverflow() throws {
        let deep =
            #"{"id":1,"x":"# + String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000) + "}"
        let records = try readAll(NDJSONReader(path: files.write("deep.ndjson", deep + "\n{\"id\":2}\n")))
        XCTAssertEqual(records.count, 2)
        XCTAssertTrue(
            records[0].failure!.message.contains("nesting deeper than 512 levels"), records[0].failure!.message)
        XCTAssertEqual(records[1].fields["id"]!, "2")
    }

    func testNumbersKeepTheirExactText() throws {
        let numbers = ["0.1", "1e400", "123456789012345678901234567890", "-0", "1E-7", "2.50"]
        let text = numbers.map { #"{"n":"# + $0 + #","x":[]}"# }.joined(separator: "\n")
        let records = try readAll(NDJSONReader(path: files.write("n.ndjson", text)))
        XCTAssertEqual(records.map(\.values.first), numbers.map { FieldValue.number($0) })
    }
}
