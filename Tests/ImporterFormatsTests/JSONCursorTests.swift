import XCTest

@testable import ImporterFormats

/// The JSON scanners' steps over text.
final class JSONCursorTests: XCTestCase {
    /// `stringStop` finds the first quote, backslash or control character, eight bytes at a
    /// time, where a byte-by-byte search finds it: at every offset in a word, after bytes that
    /// differ from those only in their high bit (0xA2, 0xDC, 0x80–0x9F), and in tails shorter
    /// than a word.
    func testStringStopFindsTheFirstQuoteBackslashOrControlCharacter() {
        var generator = SystemRandomNumberGenerator()
        let plain: [UInt8] =
            Array("abcXYZ09 :,{}[]~".utf8) + [0xA2, 0xDC, 0x80, 0x9F, 0xA0, 0xC3, 0xBF, 0xFF, 0x7F, 0x20, 0x21, 0x5D]
        let stops: [UInt8] = [34, 92, 0, 9, 10, 31]
        var checked = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0..<40, using: &generator)
            var bytes = (0..<length).map { _ in plain.randomElement(using: &generator)! }
            for _ in 0..<Int.random(in: 0..<3, using: &generator) where length > 0 {
                bytes[Int.random(in: 0..<length, using: &generator)] = stops.randomElement(using: &generator)!
            }
            let start = Int.random(in: 0...length, using: &generator)
            let expected = bytes[start...].firstIndex { $0 == 34 || $0 == 92 || $0 < 32 } ?? length
            let found = bytes.withUnsafeBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return JSONCursor(base: base, count: buffer.count).stringStop(from: start)
            }
            if found != expected {
                XCTFail("\(bytes) from \(start): \(found), not \(expected)")
                return
            }
            checked += 1
        }
        XCTAssertEqual(checked, 20_000)
    }
}
