import ImporterCore
import XCTest
@testable import ImporterFormats

/// The scanner of flat objects gives exactly what the strict parser gives, or declines.
final class FlatObjectScannerTests: XCTestCase {
    /// Texts the scanner takes: for each, its names and values are the strict parser's.
    func testTakenTextsGiveTheStrictParsersFields() {
        let taken = [
            #"{"checkinId":"0b1c","locationId":"loc-000042","checkinTime":"2024-03-01T10:00:00.123Z","comment":"Café crème, \"flat white\"","rating":5}"#,
            #"{}"#, #" { } "#, "\t{\"a\" : 1 ,\"b\":\t-2 }\r", #"{"a":""}"#, #"{"":1}"#,
            #"{"a":0,"b":-1,"c":123456789012345678,"d":-123456789012345678}"#,
            #"{"a":0.5,"b":-0.0,"c":12345678901234567.123456789,"d":1.000,"e":-0.25}"#,
            #"{"t":true,"f":false,"n":null}"#,
            #"{"e":"\\ \/ \b \f \n \r \t \""}"#, #"{"k":"Müsli 🍕 日本"}"#, "{\"del\":\"\u{7F}\"}",
            "{\"a\":1,\n\"b\":2}",
            #"{"a":1e5,"b":1.5E-3,"c":-0,"d":1234567890123456789012345678901,"e":1e400,"f":0.1}"#,
            "{\"a\":1" + String(repeating: "0", count: 50) + ".5}",
        ]
        for text in taken {
            let (fast, strict) = both(Array(text.utf8))
            XCTAssertNotNil(fast, text)
            guard let fast, case .success(let fields) = strict else {
                XCTFail("the strict parser rejects \(text)")
                continue
            }
            XCTAssertEqual(fast.names, fields.names, text)
            XCTAssertEqual(fast.values, fields.values, text)
        }
    }

    /// Texts the scanner declines, so the strict parser parses (or rejects) them with its messages.
    func testOtherTextsAreLeftToTheStrictParser() {
        let texts: [String] = [
            #"{"a":{"b":1}}"#, #"{"a":[1]}"#, #"{"a":"\u00e9"}"#, #"{"a":1e}"#, #"{"a":1.5E+}"#, #"{"a":-}"#,
            #"{"a":01}"#, #"{"a":-01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":+1}"#,
            #"{"a":1,"a":2}"#, #"{"a":1,}"#, #"{"a" 1}"#, #"{"a":1"#, #"{"a":"x"#, #"{"a":True}"#,
            #"{"a":truex}"#, #"{"a":nul}"#, #"{"a":NaN}"#, #"{'a':1}"#, #"{a:1}"#, #"{"a":1} x"#, #"{"a":1}{"b":2}"#,
            #"[1,2]"#, #"42"#, #""s""#, "", "   ", "{\"a\":\"tab\there\"}", #"{"a\"b":1}"#, #"{"a":"x\q"}"#,
            #"{"a":1 /* c */}"#,
        ]
        var declined: [[UInt8]] = texts.map { Array($0.utf8) }
        declined.append(Array(#"{"a":""#.utf8) + [0xFF] + Array(#""}"#.utf8))
        declined.append(Array(#"{""#.utf8) + [0xC3] + Array(#"":1}"#.utf8))
        declined.append(Array(#"{"a":"x"#.utf8) + [0] + Array(#""}"#.utf8))
        for bytes in declined {
            XCTAssertNil(both(bytes).fast, String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Records with the same keys share one names array; other keys make a new one.
    func testNamesAreSharedWhileTheKeysStayTheSame() {
        var scanner = FlatObjectScanner()
        func names(_ text: String) -> [String] {
            Array(text.utf8).withUnsafeBufferPointer { scanner.fields($0)!.names }
        }
        let first = names(#"{"a":1,"bc":2}"#), second = names(#"{"a":3,"bc":"x"}"#)
        XCTAssertEqual(second, ["a", "bc"])
        first.withUnsafeBufferPointer { a in
            second.withUnsafeBufferPointer { b in XCTAssertEqual(a.baseAddress, b.baseAddress) }
        }
        XCTAssertEqual(names(#"{"ab":1,"c":2}"#), ["ab", "c"])
        XCTAssertEqual(names(#"{"ab":1}"#), ["ab"])
        XCTAssertEqual(names(#"{"a":1,"bc":2}"#), ["a", "bc"])
    }

    private func both(_ bytes: [UInt8]) -> (
        fast: (names: [String], values: [FieldValue])?,
        strict: Result<(names: [String], values: [FieldValue]), StrictJSONParser.SyntaxError>
    ) {
        var scanner = FlatObjectScanner()
        var parser = StrictJSONParser()
        return bytes.withUnsafeBufferPointer { (scanner.fields($0), parser.objectFields($0)) }
    }
}
