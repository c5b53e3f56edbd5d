import XCTest
import Foundation
@testable import ImporterCore

final class ValueCoercionTests: XCTestCase {
    func coerce(_ field: FieldValue, _ type: AttributeType, _ format: DateFormat = .iso8601) -> Result<
        Value, CoercionProblem
    > {
        ValueCoercion.coerce(field, to: type, dateFormat: format)
    }

    func value(_ field: FieldValue, _ type: AttributeType, _ format: DateFormat = .iso8601) -> Value? {
        try? coerce(field, type, format).get()
    }

    func reason(_ field: FieldValue, _ type: AttributeType, _ format: DateFormat = .iso8601) -> RejectReason? {
        if case .failure(let problem) = coerce(field, type, format) { return problem.reason }
        return nil
    }

    func testDecimalsStayExact() {
        XCTAssertEqual(value(.text("12345678901234567.123456789"), .decimal), .decimal("12345678901234567.123456789"))
        XCTAssertEqual(value(.number("12345678901234567.123456789"), .decimal), .decimal("12345678901234567.123456789"))
        XCTAssertEqual(value(.text("+001.500"), .decimal), .decimal("1.5"))
        XCTAssertEqual(value(.text("-0.0"), .decimal), .decimal("0"))
        XCTAssertEqual(value(.number("1.25e3"), .decimal), .decimal("1250"))
        XCTAssertEqual(value(.number("5E-3"), .decimal), .decimal("0.005"))
        XCTAssertEqual(reason(.text("1.2.3"), .decimal), .type)
        XCTAssertEqual(reason(.text("NaN"), .decimal), .type)
    }

    func testIntegersAcrossTheirRanges() {
        XCTAssertEqual(value(.number("9223372036854775807"), .int64), .integer(.max))
        XCTAssertEqual(value(.text("-9223372036854775808"), .int64), .integer(.min))
        XCTAssertEqual(value(.number("9007199254740993"), .int64), .integer(9_007_199_254_740_993))
        XCTAssertEqual(reason(.number("9223372036854775808"), .int64), .range)
        XCTAssertEqual(value(.text("32767"), .int16), .integer(32767))
        XCTAssertEqual(reason(.text("32768"), .int16), .range)
        XCTAssertEqual(reason(.text("-2147483649"), .int32), .range)
        XCTAssertEqual(value(.text(" 42 "), .int32), .integer(42))
        XCTAssertEqual(value(.text("7"), .int32), .integer(7))
        XCTAssertEqual(reason(.text("12.5"), .int32), .type)
        XCTAssertEqual(reason(.bool(true), .int32), .type)
    }

    func testIntegersAreReadAsInt64ReadsThem() {
        let texts = [
            "0", "-0", "+0", "7", "+7", "-7", "007", "-007", " 42 ", "\t9\t", "", " ", "+", "-", "+-1", "1-", "1 2",
            "1.0", "1e3", "0x10", "٣", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
            "-9223372036854775809", "+9223372036854775807", "99999999999999999999", "12a",
        ]
        for text in texts {
            let trimmed = String(
                text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            XCTAssertEqual(value(.text(text), .int64), Int64(trimmed).map(Value.integer), text)
        }
    }

    func testDoublesRefuseInfinityAndNaN() {
        XCTAssertEqual(value(.text("-12.5e2"), .double), .double(-1250))
        XCTAssertEqual(reason(.text("inf"), .double), .type)
        XCTAssertEqual(reason(.text("nan"), .double), .type)
        XCTAssertEqual(reason(.text("0x10"), .double), .type)
        XCTAssertEqual(reason(.text("1e999"), .double), .range)
        XCTAssertEqual(reason(.text("1e39"), .float), .range)
        XCTAssertEqual(value(.text("0.1"), .float), .double(Double(Float(0.1))))
    }

    /// Plain decimals are read on a fast path over their bytes: every one must be the double
    /// `Double(text)` reads, bit for bit (a division rounded once, as `strtod` rounds).
    func testPlainDecimalsReadAsDoubleReadsThem() {
        var texts = [
            "0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.2", "0.3", "1.5", "-12.345", "007.500", "123456789012345",
            "12345678.9012345", "0.000000000000001", "999999999999999", "-999999999999999", "9007199254740991",
            "1234567890123456", "0.1234567890123456", "40.7128", "-74.0060", "2.2250738585072014", "1.7976931348623157",
            // Declined by the fast path, read by `Double`, or refused: the same either way.
            "1.", ".5", "-.5", "+1.5", "1e5", "1.5E-3", " 1.5", "1.5 ", "1..5", "1.2.3", "-", ".", "", "--1", "1-",
            "0x10", "inf", "nan", "١٢",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let whole = UInt64.random(in: 0..<1_000_000_000, using: &generator)
            let fraction = UInt64.random(in: 0..<10_000_000, using: &generator)
            let width = Int.random(in: 1...7, using: &generator)
            let sign = Bool.random(using: &generator) ? "-" : ""
            let digits = String(String(fraction).prefix(width))
            texts.append("\(sign)\(whole).\(digits)")
            texts.append("\(sign)0.\(String(repeating: "0", count: width))\(digits)")
        }
        for text in texts {
            let expected = Double(text.trimmingCharacters(in: .whitespaces)).flatMap { number -> Value? in
                let literal = text.trimmingCharacters(in: .whitespaces)
                let plain = !literal.isEmpty && literal.utf8.allSatisfy { "0123456789+-.eE".utf8.contains($0) }
                return plain && number.isFinite ? .double(number) : nil
            }
            let read = value(.text(text), .double)
            XCTAssertEqual(read, expected, "'\(text)'")
            if case .double(let got)? = read, case .double(let want)? = expected {
                XCTAssertEqual(got.bitPattern, want.bitPattern, "'\(text)': the sign of zero, and every bit")
            }
        }
    }

    func testDatesAreNormalisedToUTCMilliseconds() {
        func text(_ input: FieldValue, _ format: DateFormat = .iso8601) -> String? {
            value(input, .date, format).map(\.description)
        }
        XCTAssertEqual(text(.text("2024-03-01T12:15:30+02:00")), "2024-03-01T10:15:30.000Z")
        XCTAssertEqual(text(.text("2024-03-01T10:15:30.25Z")), "2024-03-01T10:15:30.250Z")
        XCTAssertEqual(text(.text("2024-02-29 23:59:59.999-0130")), "2024-03-01T01:29:59.999Z")
        XCTAssertEqual(text(.text("2024-03-01")), "2024-03-01T00:00:00.000Z")
        XCTAssertEqual(text(.text("1969-12-31T23:59:59.999Z")), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(text(.text("2024-03-01T10:15:30.123000Z")), "2024-03-01T10:15:30.123Z")
        XCTAssertEqual(reason(.text("2024-03-01T10:15:30.1234Z"), .date), .type)
        XCTAssertEqual(reason(.text("2023-02-29T00:00:00Z"), .date), .type)
        XCTAssertEqual(reason(.text("yesterday"), .date), .type)
        XCTAssertEqual(text(.number("1709288130"), .epochSeconds), "2024-03-01T10:15:30.000Z")
        XCTAssertEqual(text(.number("1709288130.5")), "2024-03-01T10:15:30.500Z")
        XCTAssertEqual(text(.text("1709288130250"), .epochMillis), "2024-03-01T10:15:30.250Z")
        XCTAssertEqual(text(.text("01/03/2024 10:15"), .pattern("dd/MM/yyyy HH:mm")), "2024-03-01T10:15:00.000Z")
    }

    /// Dates are written two digits at a time: every moment of the years 0000–9999 reads back
    /// as itself, and the spellings outside them keep their form.
    func testDatesAreFormattedAndReadBack() {
        XCTAssertEqual(ISO8601.format(millis: 0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.format(millis: -1), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(ISO8601.format(millis: 1_358_359_200_007), "2013-01-16T18:00:00.007Z")
        XCTAssertEqual(ISO8601.format(millis: 253_402_300_799_999), "9999-12-31T23:59:59.999Z")
        XCTAssertEqual(ISO8601.format(millis: -62_167_219_200_000), "0000-01-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.format(millis: 253_402_300_800_000), "10000-01-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.format(millis: -62_167_219_200_001), "-0001-12-31T23:59:59.999Z")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let millis = Int64.random(in: -62_167_219_200_000...253_402_300_799_999, using: &generator)
            let text = ISO8601.format(millis: millis)
            XCTAssertEqual(text.utf8.count, 24)
            guard case .success(let read) = ISO8601.parse(text), read == millis else {
                return XCTFail("\(millis) was written as \(text), which does not read back")
            }
        }
    }

    /// Found by fuzzing: an epoch number past year 9999 was stored as a date whose
    /// year no longer fit its text. The years 0000–9999 are kept; anything else is a range rejection.
    func testEpochNumbersOutsideTheYears0To9999AreRangeRejections() {
        func text(_ input: FieldValue, _ format: DateFormat) -> String? {
            value(input, .date, format).map(\.description)
        }
        XCTAssertEqual(text(.text("253402300799999"), .epochMillis), "9999-12-31T23:59:59.999Z")
        XCTAssertEqual(text(.text("-62167219200000"), .epochMillis), "0000-01-01T00:00:00.000Z")
        XCTAssertEqual(reason(.text("253402300800000"), .date, .epochMillis), .range)
        XCTAssertEqual(reason(.text("9223372036854775807"), .date, .epochMillis), .range)
        XCTAssertEqual(reason(.text("-62167219200001"), .date, .epochMillis), .range)
        XCTAssertEqual(reason(.number("253402300800"), .date, .epochSeconds), .range)
        XCTAssertEqual(reason(.number("99999999999999"), .date), .range, "a JSON number read as epoch seconds")
    }

    func testBooleans() {
        for yes in ["true", "TRUE", "1", "yes", "Yes"] {
            XCTAssertEqual(value(.text(yes), .boolean), .boolean(true), yes)
        }
        for no in ["false", "0", "no", "NO"] { XCTAssertEqual(value(.text(no), .boolean), .boolean(false), no) }
        XCTAssertEqual(value(.bool(false), .boolean), .boolean(false))
        XCTAssertEqual(reason(.text("maybe"), .boolean), .type)
        XCTAssertEqual(reason(.number("1"), .boolean), .type)
    }

    /// An object or array is a string's value as its compact JSON text (docs/values.md), and no
    /// other type's.
    func testStringsAcceptJSONNumbersAndObjectsAsTheirText() {
        XCTAssertEqual(value(.number("42"), .string), .string("42"))
        XCTAssertEqual(
            value(.composite("{ \"city\" : \"Le Mans\",\n \"tags\": [1, \"a \\\" b\"] }"), .string),
            .string("{\"city\":\"Le Mans\",\"tags\":[1,\"a \\\" b\"]}"))
        XCTAssertEqual(reason(.composite("{}"), .int64), .type)
        XCTAssertEqual(reason(.composite("[]"), .date), .type)
        XCTAssertEqual(value(.null, .string), .null)
    }
}
