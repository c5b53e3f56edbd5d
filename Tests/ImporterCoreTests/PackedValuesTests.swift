import XCTest
@testable import ImporterCore

/// A record's values packed into one buffer come back as they were: every case, the ends of
/// each range, text of every length and script; one read alone; a record changed while packed.
final class PackedValuesTests: XCTestCase {
    private var generator = SystemRandomNumberGenerator()

    private func randomText() -> String {
        let alphabet: [String] = ["a", "Z", "0", " ", "é", "€", "中", "𝄞", "\"", "\\", "\u{0}", "\n"]
        let length = [0, 1, 15, 16, 127, 128, 300].randomElement(using: &generator)!
        return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined().prefix(length))
    }

    private func randomValue(depth: Int = 0) -> Value {
        let integers: [Int64] = [0, 1, -1, 63, 64, -64, -65, 127, 128, .max, .min, .max - 1, .min + 1]
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: return .null
        case 1: return .string(randomText())
        case 2:
            return .integer(
                Bool.random(using: &generator)
                    ? integers.randomElement(using: &generator)! : .random(in: .min ... .max, using: &generator))
        case 3:
            let special: [Double] = [0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
            return .double(
                Bool.random(using: &generator)
                    ? special.randomElement(using: &generator)! : .random(in: -1e300...1e300, using: &generator))
        case 4:
            return .decimal(["0", "-12.50", "123456789012345678901234567890.000001"].randomElement(using: &generator)!)
        case 5: return .date(integers.randomElement(using: &generator)!)
        case 6: return .boolean(Bool.random(using: &generator))
        case 7: return .binary((0..<Int.random(in: 0..<200, using: &generator)).map { _ in .random(in: 0...255) })
        case 8 where depth == 0: return .pair(randomValue(depth: 1), randomValue(depth: 1))
        default: return .string("short")
        }
    }

    func testValuesComeBackAsTheyWerePackedAndEachOneAlone() {
        for _ in 0..<3000 {
            let values = (0..<Int.random(in: 0..<25, using: &generator)).map { _ in randomValue() }
            let packed = PackedValues(values)
            XCTAssertEqual(packed.values, values)
            for index in values.indices { XCTAssertEqual(packed.value(at: index), values[index]) }
        }
        // -0.0 equals 0.0: its sign is kept all the same.
        guard case .double(let negativeZero) = PackedValues([.double(-0.0)]).values[0] else { return XCTFail() }
        XCTAssertEqual(negativeZero.sign, .minus)
        XCTAssertTrue(PackedValues([.double(.nan)]).value(at: 0).description == "nan")
    }

    func testPackedValuesTakeLessRoomThanAnArrayOfValues() {
        // A row like a town of the documents bench: ids, names, numbers, a date.
        let values: [Value] = [
            .string("65f1a2b3c4d5e6f708192a01"), .string("Saint-Étienne-de-Tinée"), .integer(4_213),
            .double(44.2567), .double(6.9213), .date(1_772_442_900_000), .string("Émilie Dubois-Laurent"),
            .null, .integer(3), .boolean(true),
        ]
        let packed = PackedValues(values)
        XCTAssertEqual(packed.values, values)
        XCTAssertEqual(packed.textCount, 0)
        XCTAssertLessThanOrEqual(packed.byteCount, 110)
        // The length of a text let go takes a varint of its own, ahead of the values.
        let withText = PackedValues(values, textCount: 300)
        XCTAssertEqual(withText.values, values)
        XCTAssertEqual(withText.value(at: 6), values[6])
        XCTAssertEqual(withText.textCount, 300)
        XCTAssertEqual(withText.byteCount, packed.byteCount + 1)
        XCTAssertGreaterThan(MemoryLayout<Value>.stride * values.count, 3 * packed.byteCount / 2)
    }

    func testARecordReadsTheSameValuesPackedAndKeepsAChangeMadeWhilePacked() {
        let values: [Value] = [.string("L-1"), .integer(7), .string("a reference to nowhere"), .date(86_400_000)]
        var record = PreparedRecord(inputIndex: 2, line: 9, byteOffset: 120, raw: [], values: values, ordinal: 4)
        let keyIndices = [0, 1]
        XCTAssertFalse(record.isPacked)
        let unpackedKey = record.key(at: keyIndices)
        record.pack()
        XCTAssertTrue(record.isPacked)
        XCTAssertEqual(record.values, values)
        XCTAssertEqual(record.key(at: keyIndices), unpackedKey)
        XCTAssertEqual(record.key(at: keyIndices), .pair(.string("L-1"), .integer(7)))
        XCTAssertEqual(record.value(at: 3), .date(86_400_000))
        // A reference nullified by the key checks: changed in place, still packed.
        record.values[2] = .null
        XCTAssertTrue(record.isPacked)
        XCTAssertEqual(record.values, [.string("L-1"), .integer(7), .null, .date(86_400_000)])
        XCTAssertEqual(record.key(at: [2]), .null)
        XCTAssertEqual(record.key(at: [0, 2]), .null, "a key with a null part is null")
    }
}
