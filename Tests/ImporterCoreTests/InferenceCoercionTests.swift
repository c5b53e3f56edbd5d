import XCTest
@testable import ImporterCore

/// `model infer` types a column only with a type that `importer run` then reads every value of:
/// the forms KeyHash recognises, and the candidates TypeCandidates keeps, agree with
/// ValueCoercion on tricky texts.
final class InferenceCoercionTests: XCTestCase {
    static let texts = [
        "0", "1", "-0", "+0", "+7", "-7", " 42 ", "\t9", "007", "0123", "-007", "00", "00.5", "0.5", "-0.5", ".5", "5.",
        "1e3", "1E-3", "inf", "nan", "NaN", "1_000", "1 2", "", " ", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "12345678901234567890", "true", "FALSE", "yes", "No", "y",
        "2024-06-01", "2024-06-01T10:00:00Z", "2024-06-01 10:00", "2024-06-01T10:00:00.123456Z",
        "2024-06-01T10:00:00.1230Z",
        "2024-02-30", "2024-13-01", "24-06-01", " 2024-06-01 ", "2024-06-01T25:00", "01/02/2024", "2024/06/01",
        "0f8fad5b-d9cb-469f-a165-70867728950e", "0F8FAD5B-D9CB-469F-A165-70867728950E",
        "0f8fad5bd9cb469fa16570867728950e",
        "0f8fad5b-d9cb-469f-a165-70867728950g", "0f8fad5b-d9cb-469fa-165-70867728950e",
        " 0f8fad5bd9cb469fa16570867728950e ",
        "12345678901234567890123456789012", "0f8fad5b-d9cb-469f-a165-7086772895\u{10}e",
        "0f8fad5b-d9cb-469f-a165-70867728950G", "NA", "x",
    ]

    func accepts(_ text: String, _ type: AttributeType, _ format: DateFormat = .iso8601) -> Bool {
        if case .success = ValueCoercion.coerce(.text(text), to: type, dateFormat: format) { return true }
        return false
    }

    func testTheFormsAreReadAsCoercionReadsThem() {
        for text in Self.texts {
            let form = KeyHash.of(text).form
            let shape = NumberShape(text)
            XCTAssertEqual(form == .iso8601, accepts(text, .date), text)
            XCTAssertEqual(form == .uuid, accepts(text, .uuid), text)
            if case .integer(let number) = form {
                XCTAssertEqual(
                    try? ValueCoercion.coerce(.text(text), to: .int64, dateFormat: .iso8601).get(), .integer(number),
                    text)
            } else {
                XCTAssertTrue(!accepts(text, .int64) || shape.leadingZero, text)
            }
        }
    }

    func testEveryCandidateLeftReadsTheValue() {
        for text in Self.texts {
            var candidates = TypeCandidates()
            candidates.observe(.text(text))
            if candidates.integer { XCTAssertTrue(accepts(text, .int64), text) }
            if candidates.double { XCTAssertTrue(accepts(text, .double), text) }
            if candidates.boolean { XCTAssertTrue(accepts(text, .boolean), text) }
            if candidates.uuid { XCTAssertTrue(accepts(text, .uuid), text) }
            for index in DateCandidates.formats.indices where candidates.dates & (1 << UInt32(index)) != 0 {
                XCTAssertTrue(
                    accepts(text, .date, DateCandidates.formats[index]), "\(text) as \(DateCandidates.name(index))")
            }
            // And what coercion reads is kept, but for numbers written with a leading zero.
            if accepts(text, .int64) && !NumberShape(text).leadingZero { XCTAssertTrue(candidates.integer, text) }
            if accepts(text, .uuid) { XCTAssertTrue(candidates.uuid, text) }
            if accepts(text, .date) { XCTAssertTrue(candidates.dates & 1 != 0, text) }
        }
    }

    func testPlainDecimalsAreJudgedAsTheShapeAndCoercionJudgeThem() {
        let texts =
            Self.texts + [
                "12.25", "-0.0", "+01.5", "0.000", "1.5e3", "1..5", "-.5", "1.5 ", " 1.5", "1.-5", "+.5", "1.5.", "-",
                String(repeating: "9", count: 300) + ".5", String(repeating: "9", count: 301) + ".5", "0" + "1.25",
            ]
        var judged = 0
        for text in texts {
            guard let plain = NumberShape.plainDecimal(text) else { continue }
            judged += 1
            let shape = NumberShape(text)
            XCTAssertEqual(plain, !shape.leadingZero && !shape.oversizedInteger && accepts(text, .double), text)
        }
        XCTAssertEqual(judged, 9)
    }

    func testEqualValuesHashEqual() {
        XCTAssertEqual(KeyHash.of("+5").hash, KeyHash.of(" 5").hash)
        XCTAssertEqual(KeyHash.of("2024-06-01T10:00:00Z").hash, KeyHash.of("2024-06-01T12:00:00+02:00").hash)
        XCTAssertEqual(
            KeyHash.of("0F8FAD5BD9CB469FA16570867728950E").hash, KeyHash.of("0f8fad5b-d9cb-469f-a165-70867728950e").hash
        )
        XCTAssertNotEqual(KeyHash.of("007").hash, KeyHash.of("7").hash)
        XCTAssertNotEqual(KeyHash.of("a").hash, KeyHash.of("A").hash)
        XCTAssertTrue(KeyHash.of("a|b").pipe)
        XCTAssertTrue(KeyHash.of("abcdefgh|ijk").pipe)
        XCTAssertFalse(KeyHash.of("abcdefghijk").pipe)
    }

    func testRelativePaths() {
        XCTAssertEqual(RelativePaths.relative("/data/dumps/a.csv", from: "/data/out"), "../dumps/a.csv")
        XCTAssertEqual(RelativePaths.relative("/data/out/model.yaml", from: "/data/out"), "model.yaml")
        XCTAssertEqual(RelativePaths.absolute("x/../y/./z.csv", currentDirectory: "/w"), "/w/y/z.csv")
    }
}
