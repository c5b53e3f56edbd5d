import Foundation
import ImporterCore
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// The DynamoDB item encoding (docs/values.md): the JSON text, the item size, and decode(encode(x)) == x.
final class DynamoItemCodingTests: XCTestCase {
    /// One attribute of every type, the hash key first.
    static let entity = Entity(
        name: "Sample", table: "Samples", hashKey: "id", versionAttribute: "version",
        attributes: [
            Attribute(name: "id", type: .string),
            Attribute(name: "small", type: .int16),
            Attribute(name: "medium", type: .int32),
            Attribute(name: "version", type: .int64),
            Attribute(name: "amount", type: .decimal),
            Attribute(name: "ratio", type: .double),
            Attribute(name: "weight", type: .float),
            Attribute(name: "createdAt", type: .date),
            Attribute(name: "active", type: .boolean),
        ],
        relationships: [])

    static let iso = DynamoItemCoding(entity: entity)
    static let epoch = DynamoItemCoding(entity: entity, dates: .epochSeconds)

    static func values(
        id: Value = .string("k"), small: Value = .null, medium: Value = .null, version: Value = .integer(1),
        amount: Value = .null, ratio: Value = .null, weight: Value = .null, createdAt: Value = .null,
        active: Value = .null
    ) -> [Value] {
        [id, small, medium, version, amount, ratio, weight, createdAt, active]
    }

    static func parse(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> DynamoItem {
        try JSONDecoder().decode(DynamoItem.self, from: Data(json.utf8))
    }

    /// The item that JSON of these Foundation values is, as DynamoDB's answer would carry it.
    static func item(_ object: [String: Any]) -> DynamoItem {
        (try? JSONDecoder().decode(DynamoItem.self, from: JSONSerialization.data(withJSONObject: object))) ?? [:]
    }

    /// encode → JSONSerialization → decode, asserting the values come back identical.
    static func assertRoundTrip(
        _ values: [Value], _ coding: DynamoItemCoding, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let json = coding.encode(values)
        let decoded = try coding.decode(try parse(json, file: file, line: line))
        XCTAssertEqual(decoded, values, "through \(json)", file: file, line: line)
        for (index, (back, original)) in zip(decoded, values).enumerated() {
            if case .double(let a) = back, case .double(let b) = original {
                XCTAssertEqual(
                    a.bitPattern, b.bitPattern, "attribute \(index): \(a) vs \(b) through \(json)",
                    file: file, line: line)
            }
        }
    }

    // MARK: Encoding

    func testEncodesEveryTypeInModelOrderWithNullsOmitted() {
        let values = Self.values(
            small: .integer(-7), medium: .null, version: .integer(3), amount: .decimal("12.5"),
            ratio: .double(0.1), weight: .double(2.5), createdAt: .date(1_709_288_130_250), active: .boolean(true))
        XCTAssertEqual(
            Self.iso.encode(values),
            #"{"id":{"S":"k"},"small":{"N":"-7"},"version":{"N":"3"},"amount":{"N":"12.5"},"#
                + #""ratio":{"N":"0.1"},"weight":{"N":"2.5"},"createdAt":{"S":"2024-03-01T10:15:30.250Z"},"#
                + #""active":{"BOOL":true}}"#)
    }

    func testAllNullsGiveOnlyTheNonNullAttributes() {
        let values: [Value] = Array(repeating: .null, count: Self.entity.attributes.count)
        XCTAssertEqual(Self.iso.encode(values), "{}")
        XCTAssertEqual(Self.iso.itemSize(values), 0)
    }

    func testFalseIsABooleanNotAnOmission() {
        XCTAssertEqual(
            Self.iso.encode(Self.values(id: .null, version: .null, active: .boolean(false))),
            #"{"active":{"BOOL":false}}"#)
    }

    func testStringsAreEscapedAsJSONAndKeepNonASCIIAsUTF8() {
        let text = "q\"b\\s/\n\r\t\u{08}\u{0C}\u{01}\u{1F} é 😀"
        XCTAssertEqual(
            Self.iso.encode(Self.values(id: .string(text), version: .null)),
            #"{"id":{"S":"q\"b\\s/\n\r\t\b\f\u0001\u001f é 😀"}}"#)
    }

    func testDoublesAreWrittenAsPlainDecimalTextWithoutExponent() {
        let cases: [(Double, String)] = [
            (0.1, "0.1"), (-0.0, "0"), (0, "0"), (1e-7, "0.0000001"), (1e21, "1000000000000000000000"),
            (123456.789, "123456.789"), (-2.5e-10, "-0.00000000025"), (3, "3"),
            (Double.greatestFiniteMagnitude, "17976931348623157" + String(repeating: "0", count: 292)),
        ]
        for (number, text) in cases {
            XCTAssertEqual(
                Self.iso.encode(Self.values(id: .null, version: .null, ratio: .double(number))),
                #"{"ratio":{"N":"\#(text)"}}"#, "\(number)")
        }
    }

    func testEpochSecondsDatesHaveAMillisecondFractionWithoutTrailingZeros() {
        let cases: [(Int64, String)] = [
            (1_709_288_130_250, "1709288130.25"), (1_709_288_130_000, "1709288130"),
            (1_709_288_130_001, "1709288130.001"), (0, "0"), (-1_500, "-1.5"), (-1, "-0.001"),
            (-86_400_000, "-86400"),
        ]
        for (millis, text) in cases {
            XCTAssertEqual(
                Self.epoch.encode(Self.values(id: .null, version: .null, createdAt: .date(millis))),
                #"{"createdAt":{"N":"\#(text)"}}"#, "\(millis)")
        }
    }

    func testEncodedItemsAreValidJSON() throws {
        let values = Self.values(
            id: .string("a\"\u{0}\u{7F}\u{2028}"), amount: .decimal("-0.001"),
            ratio: .double(-1e-300), createdAt: .date(-62_135_596_800_000), active: .boolean(false))
        for coding in [Self.iso, Self.epoch] {
            XCTAssertEqual(try Self.parse(coding.encode(values)).count, 6)
        }
    }

    // MARK: Round trips

    /// Edge values per attribute; each row is encoded and decoded under both date encodings.
    static let edgeRows: [[Value]] = {
        var rows: [[Value]] = []
        let strings = [
            "", "plain", "unicode é ß ñ 中文", "emoji 😀👩‍👩‍👧 🇫🇷", "quote \" backslash \\ slash /",
            "newline\nreturn\rtab\t", "controls \u{0}\u{1}\u{1F}\u{7F}", "\u{2028}\u{2029}\u{FEFF}",
            "{\"S\":\"not an item\"}",
        ]
        rows += strings.map { values(id: .string($0)) }
        rows += [Int64.min, Int64.max, 0, -1, 1, 9_007_199_254_740_993].map { values(version: .integer($0)) }
        rows += [Int16.min, Int16.max].map { values(small: .integer(Int64($0))) }
        rows += [Int32.min, Int32.max].map { values(medium: .integer(Int64($0))) }
        let decimals = [
            "12345678901234567890.123456789", "-12345678901234567890.123456789", "0", "-0.5",
            "0.000000000000000000000000000000000001", "99999999999999999999999999999999999999",
            "-3", "1.1",
        ]
        rows += decimals.map { values(amount: .decimal($0)) }
        let doubles: [Double] = [
            0.1, -0.1, 0, 1e-7, 1e21, 123456.789, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude,
            1.0 / 3.0, 2.0 / 3.0, 1e22, 1e23, 9_007_199_254_740_992, 0.30000000000000004,
            -1e-300, 1.7e308,
        ]
        rows += doubles.map { values(ratio: .double($0)) }
        rows += [Double(Float.pi), Double(Float(0.1)), Double(Float.greatestFiniteMagnitude)].map {
            values(weight: .double($0))
        }
        let dates: [Int64] = [
            0, 1, -1, 999, -999, 1_709_288_130_250, 1_709_288_130_000, -86_400_001,
            -2_208_988_800_000 /* 1900-01-01 */, -62_135_596_800_000 /* 0001-01-01 */,
            253_402_300_799_999 /* 9999-12-31T23:59:59.999 */, 951_782_400_000 /* 2000-02-29 */,
        ]
        rows += dates.map { values(createdAt: .date($0)) }
        rows += [true, false].map { values(active: .boolean($0)) }
        rows.append(
            values(
                id: .string("all"), small: .integer(5), medium: .integer(-70_000), version: .integer(42),
                amount: .decimal("-0.01"), ratio: .double(-273.15), weight: .double(1.5),
                createdAt: .date(-1), active: .boolean(false)))
        rows.append(Array(repeating: .null, count: entity.attributes.count))
        return rows
    }()

    func testEveryEdgeValueRoundTripsUnderBothDateEncodings() throws {
        for row in Self.edgeRows {
            try Self.assertRoundTrip(row, Self.iso)
            try Self.assertRoundTrip(row, Self.epoch)
        }
    }

    /// `encodeObject` (how a migration builds items) is what parsing `encode`'s text gives.
    func testEncodedObjectsEqualTheParsedEncodedText() throws {
        for row in Self.edgeRows {
            for coding in [Self.iso, Self.epoch] {
                XCTAssertEqual(coding.encodeObject(row), try Self.parse(coding.encode(row)), "\(row)")
            }
        }
    }

    func testNegativeZeroComesBackAsZeroBecauseDynamoDBNumbersHaveNoSign() throws {
        let decoded = try Self.iso.decode(try Self.parse(Self.iso.encode(Self.values(ratio: .double(-0.0)))))
        XCTAssertEqual(decoded[5], .double(0))
    }

    // MARK: Decoding

    func testDecodesNumbersInTheFormsDynamoDBMayReturn() throws {
        let item: [String: Any] = [
            "small": ["N": "1.2E+1"], "medium": ["N": "7.000"], "version": ["N": "-9223372036854775808"],
            "amount": ["N": "1.50E2"], "ratio": ["N": "1E-7"], "weight": ["N": "2.50"],
            "createdAt": ["S": "2024-03-01T10:15:30.25+01:00"], "unknown": ["S": "ignored"],
        ]
        XCTAssertEqual(
            try Self.iso.decode(Self.item(item)),
            Self.values(
                id: .null, small: .integer(12), medium: .integer(7), version: .integer(.min), amount: .decimal("150"),
                ratio: .double(1e-7), weight: .double(2.5), createdAt: .date(1_709_284_530_250)))
        XCTAssertEqual(
            try Self.epoch.decode(Self.item(["createdAt": ["N": "1.70928813025E9"]]))[7], .date(1_709_288_130_250))
    }

    func testMissingAndNULLAttributesAreNull() throws {
        XCTAssertEqual(try Self.iso.decode([:]), Array(repeating: .null, count: 9))
        XCTAssertEqual(
            try Self.iso.decode(Self.item(["id": ["NULL": true], "active": ["BOOL": false]])),
            Self.values(id: .null, version: .null, active: .boolean(false)))
    }

    func testBooleansFromJSONSerializationAreToldApartFromNumbers() throws {
        XCTAssertEqual(try Self.iso.decode(try Self.parse(#"{"active":{"BOOL":true}}"#))[8], .boolean(true))
        XCTAssertEqual(try Self.iso.decode(try Self.parse(#"{"active":{"BOOL":false}}"#))[8], .boolean(false))
        assertDecodeError(
            try JSONSerialization.jsonObject(with: Data(#"{"active":{"BOOL":1}}"#.utf8)) as! [String: Any],
            attribute: "active", found: #"{"BOOL": 1}"#,
            expected: "a BOOL")
        assertDecodeError(
            ["active": ["S": "true"]], attribute: "active",
            found: #"{"S": "true"}"#, expected: "a BOOL")
    }

    func testWrongTypesAndBadNumbersNameTheAttributeWhatWasFoundAndWhatWasExpected() throws {
        assertDecodeError(["id": ["N": "5"]], attribute: "id", found: #"{"N": "5"}"#, expected: "an S (string)")
        assertDecodeError(["id": "bare"], attribute: "id", found: #""bare""#, expected: "an S")
        assertDecodeError(
            ["id": ["S": "a", "N": "1"]], attribute: "id", found: #"{"N": "1", "S": "a"}"#, expected: "an S")
        assertDecodeError(
            ["small": ["N": "32768"]], attribute: "small", found: #"{"N": "32768"}"#,
            expected: "an N holding a whole number in -32768...32767 (int16)")
        assertDecodeError(
            ["medium": ["N": "1.5"]], attribute: "medium", found: #"{"N": "1.5"}"#,
            expected: "whole number in -2147483648...2147483647 (int32)")
        assertDecodeError(
            ["version": ["N": "9223372036854775808"]], attribute: "version",
            found: #"{"N": "9223372036854775808"}"#, expected: "(int64)")
        assertDecodeError(["version": ["S": "1"]], attribute: "version", found: #"{"S": "1"}"#, expected: "an N")
        assertDecodeError(
            ["amount": ["N": "1.2.3"]], attribute: "amount", found: #"{"N": "1.2.3"}"#,
            expected: "an N holding a decimal number")
        assertDecodeError(
            ["ratio": ["N": "abc"]], attribute: "ratio", found: #"{"N": "abc"}"#,
            expected: "an N holding a finite number (double)")
        assertDecodeError(
            ["weight": ["N": "inf"]], attribute: "weight", found: #"{"N": "inf"}"#,
            expected: "finite number (float)")
        assertDecodeError(
            ["createdAt": ["S": "2024-02-30T00:00:00Z"]], attribute: "createdAt",
            found: #"{"S": "2024-02-30T00:00:00Z"}"#, expected: "out of range")
        assertDecodeError(
            ["createdAt": ["N": "1709288130"]], attribute: "createdAt", found: #"{"N": "1709288130"}"#,
            expected: "an S holding a date")
        assertDecodeError(
            ["createdAt": ["N": "1.0001"]], attribute: "createdAt", found: #"{"N": "1.0001"}"#,
            expected: "at most millisecond precision", coding: Self.epoch)
        assertDecodeError(
            ["createdAt": ["N": "1E+20"]], attribute: "createdAt", found: #"{"N": "1E+20"}"#,
            expected: "epoch seconds", coding: Self.epoch)
    }

    func testErrorDescriptionReadsAsOneSentence() {
        let error = DynamoItemDecodingError(attribute: "small", found: #"{"N": "1.5"}"#, expected: "an N")
        XCTAssertEqual(error.description, #"attribute 'small': found {"N": "1.5"}, expected an N"#)
    }

    func assertDecodeError(
        _ item: [String: Any], attribute: String, found: String, expected: String,
        coding: DynamoItemCoding = DynamoItemCodingTests.iso, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try coding.decode(Self.item(item)), file: file, line: line) { error in
            guard let error = error as? DynamoItemDecodingError else {
                return XCTFail("not a DynamoItemDecodingError: \(error)", file: file, line: line)
            }
            XCTAssertEqual(error.attribute, attribute, file: file, line: line)
            XCTAssertEqual(error.found, found, file: file, line: line)
            XCTAssertTrue(
                error.expected.contains(expected), "\(error.expected) lacks \(expected)", file: file, line: line)
        }
    }

    // MARK: DynamoItem size

    func testItemSizeFollowsTheDynamoDBDeveloperGuideRules() {
        // Strings: name bytes + UTF-8 bytes ("é" is 2, "😀" is 4).
        XCTAssertEqual(Self.iso.itemSize(Self.values(id: .string("aé😀"), version: .null)), 2 + 7)
        XCTAssertEqual(Self.iso.itemSize(Self.values(id: .string(""), version: .null)), 2)
        // Booleans: name bytes + 1.
        XCTAssertEqual(Self.iso.itemSize(Self.values(id: .null, version: .null, active: .boolean(false))), 6 + 1)
        // Numbers: name bytes + ⌈significant digits / 2⌉ + 1, leading and trailing zeros trimmed.
        let numbers: [(Value, Int)] = [
            (.integer(0), 1), (.integer(7), 2), (.integer(12), 2), (.integer(123), 3), (.integer(1000), 2),
            (.integer(-1234), 3), (.integer(Int64.max), 11), (.decimal("0.00125"), 3),
            (.decimal("12345678901234567890.123456789"), 16), (.double(1e21), 2), (.double(1e-7), 2),
            (.double(0.1), 2), (.double(123456.789), 6),
        ]
        for (value, bytes) in numbers {
            XCTAssertEqual(Self.iso.itemSize(Self.values(id: .null, version: value)), 7 + bytes, "\(value)")
        }
        // Dates: the ISO text's 24 bytes as S, or epoch seconds as N ("1709288130.25": 12 digits).
        let date = Self.values(id: .null, version: .null, createdAt: .date(1_709_288_130_250))
        XCTAssertEqual(Self.iso.itemSize(date), 9 + 24)
        XCTAssertEqual(Self.epoch.itemSize(date), 9 + 7)
        // Nulls count nothing; the sum is over the present attributes.
        XCTAssertEqual(
            Self.iso.itemSize(Self.values(id: .string("abc"), version: .integer(1), active: .boolean(true))),
            (2 + 3) + (7 + 2) + (6 + 1))
    }
}
