import XCTest

@testable import ImporterFormats

/// Strings from bytes that must be UTF-8: invalid bytes are refused, never repaired.
final class UTF8TextTests: XCTestCase {
    /// Random bytes, mostly valid UTF-8 of one to four bytes a character, some with a byte
    /// changed, cut or added (overlong forms, surrogates, stray continuation bytes, U+FFFD
    /// itself): `UTF8Text.string` takes exactly what the standard library's validation takes,
    /// and gives the same string.
    func testStringTakesExactlyValidUTF8() {
        var generator = SystemRandomNumberGenerator()
        let characters = ["a", "Z", "0", " ", "é", "ł", "Ø", "€", "\u{FFFD}", "中", "𝄞", "😀"].map { Array($0.utf8) }
        let damage: [[UInt8]] = [
            [0x80], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
        ]
        var valid = 0, invalid = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1..<12, using: &generator) {
                bytes += characters.randomElement(using: &generator)!
            }
            if Bool.random(using: &generator) {
                bytes.insert(
                    contentsOf: damage.randomElement(using: &generator)!,
                    at: Int.random(in: 0...bytes.count, using: &generator))
            }
            let expected = String(validating: bytes, as: UTF8.self)
            let found = bytes.withUnsafeBufferPointer(UTF8Text.string)
            if found != expected {
                XCTFail("\(bytes): \(String(describing: found)), not \(String(describing: expected))")
                return
            }
            if expected == nil { invalid += 1 } else { valid += 1 }
        }
        XCTAssertGreaterThan(valid, 5_000)
        XCTAssertGreaterThan(invalid, 5_000)
    }
}
