import ImporterCore
import XCTest
@testable import ImporterFormats

/// DynamoDB JSON item lines (`dynamodb-json`, and the data files of `dynamodb-export`) typed
/// exactly (docs/pipeline.md#s3-sources), then coerced to the model's types.
final class DynamoDBItemTests: XCTestCase {
    let files = TempDirectory()

    private func values(_ line: String) throws -> SourceRecord {
        try XCTUnwrap(readAll(NDJSONReader(path: files.write("item.json", line), layout: .dynamoDBItem)).first)
    }

    func testScalarTypesBecomeExactFields() throws {
        let record = try values(
            #"{"Item":{"s":{"S":"Zoë \"q\""},"n":{"N":"12345678901234567890.123456789"},"b":{"B":"AAEC+v8="},"t":{"BOOL":true},"z":{"NULL":true}}}"#
        )
        XCTAssertNil(record.failure)
        XCTAssertEqual(record.names, ["s", "n", "b", "t", "z"])
        XCTAssertEqual(
            record.values,
            [.text(#"Zoë "q""#), .number("12345678901234567890.123456789"), .text("AAEC+v8="), .bool(true), .null])
        let coerce = { (field: FieldValue, type: AttributeType) in
            try ValueCoercion.coerce(field, to: type, dateFormat: .iso8601).get()
        }
        XCTAssertEqual(try coerce(record.values[1], .decimal), .decimal("12345678901234567890.123456789"))
        XCTAssertEqual(try coerce(record.values[2], .binary), .binary([0, 1, 2, 0xFA, 0xFF]))
    }

    func testSetsListsAndMapsKeepTheirExactTextForStringsOnly() throws {
        let record = try values(
            #"{"Item":{"ss":{"SS":["a","b"]},"ns":{"NS":["1.50","2"]},"bs":{"BS":["AA=="]},"l":{"L":[{"S":"x"}]},"m":{"M":{"k":{"N":"1e2"}}}}}"#
        )
        XCTAssertEqual(
            record.values,
            [
                .collection(type: "SS", json: #"{"SS":["a","b"]}"#),
                .collection(type: "NS", json: #"{"NS":["1.50","2"]}"#),
                .collection(type: "BS", json: #"{"BS":["AA=="]}"#), .collection(type: "L", json: #"{"L":[{"S":"x"}]}"#),
                .collection(type: "M", json: #"{"M":{"k":{"N":"1e2"}}}"#),
            ])
        XCTAssertEqual(
            try ValueCoercion.coerce(record.values[1], to: .string, dateFormat: .iso8601).get(),
            .string(#"{"NS":["1.50","2"]}"#))
        for type in [AttributeType.int64, .decimal, .binary, .boolean] {
            guard case .failure(let problem) = ValueCoercion.coerce(record.values[4], to: type, dateFormat: .iso8601)
            else {
                return XCTFail("a map went into \(type)")
            }
            XCTAssertEqual(
                problem.message,
                "is a DynamoDB M (map), which only a string attribute holds (as its JSON text), not a \(type.rawValue)")
        }
    }

    func testValuesThatAreNotTypedValuesRejectTheLineNamingTheAttribute() throws {
        let lines = [
            #"{"Item":{"id":{"S":"a"},"n":{"N":5}}}"#,
            #"{"Item":{"id":{"S":"a"},"n":{"N":"five"}}}"#,
            #"{"Item":{"id":{"S":"a"},"z":{"NULL":false}}}"#,
            #"{"Item":{"id":{"X":"a"}}}"#,
            #"{"Item":{"id":{"S":"a","N":"1"}}}"#,
            #"{"Item":{"id":{"SS":"a"}}}"#,
            #"{"Item":{"id":{"M":[]}}}"#,
            #"{"Item":{"id":"a"}}"#,
            #"{"Items":{}}"#,
        ]
        let records = try readAll(
            NDJSONReader(path: files.write("bad.json", lines.joined(separator: "\n")), layout: .dynamoDBItem))
        XCTAssertEqual(records.map { $0.failure?.reason }, Array(repeating: .malformed, count: lines.count))
        XCTAssertTrue(
            records[0].failure!.message.contains(#"attribute 'n' is {"N":5}, not a DynamoDB typed value"#),
            records[0].failure!.message)
        XCTAssertTrue(records[3].failure!.message.contains("attribute 'id'"), records[3].failure!.message)
        XCTAssertTrue(
            records[8].failure!.message.contains(#"the line needs one key, "Item""#), records[8].failure!.message)
    }

    func testAWSSpellingAndAnyOtherSpellingOfALineGiveTheSameFields() throws {
        let item = #"{"id":{"S":"a"},"n":{"N":"1.50"},"m":{"M":{"k":{"L":[]}}}}"#
        let lines = [#"{"Item":"# + item + "}", #" { "Item" : "# + item + " }", "{\"Item\":\t" + item + "}"]
        let records = try readAll(
            NDJSONReader(path: files.write("same.json", lines.joined(separator: "\n")), layout: .dynamoDBItem))
        XCTAssertEqual(records.count, 3)
        for record in records {
            XCTAssertNil(record.failure)
            XCTAssertEqual(record.names, ["id", "n", "m"])
            XCTAssertEqual(
                record.values, [.text("a"), .number("1.50"), .collection(type: "M", json: #"{"M":{"k":{"L":[]}}}"#)])
        }
        let wrong = try values(#"{"Item":{"id":{"S":"a"}},"more":{}}"#)
        XCTAssertTrue(
            wrong.failure?.message.contains(#"the line needs one key, "Item""#) ?? false,
            "\(String(describing: wrong.failure))")
        let broken = try values(#"{"Item":{"id":{"S":"a"},}}"#)
        XCTAssertTrue(
            broken.failure?.message.contains("invalid JSON at byte 25: a trailing comma") ?? false,
            "\(String(describing: broken.failure))")
    }
}
