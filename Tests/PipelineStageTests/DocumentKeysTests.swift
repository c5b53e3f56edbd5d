import XCTest
@testable import ImporterCore

/// The keys of one document under the key checks: each found again where it was first noted,
/// in small documents (compared one by one) and large ones (looked up), and none left over
/// from the document before.
final class DocumentKeysTests: XCTestCase {
    func testAKeyNotedTwiceIsFoundWhereItWasFirstNotedAndForgottenWithItsDocument() {
        let keys = DocumentKeys()
        // Fingerprints that share their low bits, so that lookups probe past each other.
        func fingerprint(_ number: Int) -> UInt64 { UInt64(number) << 20 | 0x5 }
        for count in [3, 32, 33, 40, 1_000, 5_000, 10] {
            keys.removeAll()
            for number in 0..<count {
                XCTAssertNil(keys.note(fingerprint(number), at: RecordLocation(inputIndex: 0, line: number)))
            }
            XCTAssertEqual(keys.noted.count, count)
            for number in [0, count / 2, count - 1] {
                XCTAssertTrue(keys.contains(fingerprint(number)))
                XCTAssertEqual(
                    keys.note(fingerprint(number), at: RecordLocation(inputIndex: 1, line: -1)),
                    RecordLocation(inputIndex: 0, line: number), "\(count) keys")
            }
            XCTAssertFalse(keys.contains(fingerprint(count)), "\(count) keys")
            XCTAssertEqual(keys.noted.count, count)
        }
        // The last document had 10 keys: those of the one before it are gone.
        XCTAssertFalse(keys.contains(fingerprint(4_999)))
        XCTAssertNil(keys.note(fingerprint(4_999), at: RecordLocation(inputIndex: 0, line: 1)))
    }

    func testALargeDocumentsTableIsFreedWithIt() {
        let keys = DocumentKeys()
        func fingerprint(_ number: Int) -> UInt64 { UInt64(number) &* 0x9E37_79B9_7F4A_7C15 }
        for count in [5_000, 70_000, 40] {
            let slots = keys.slotCount
            keys.removeAll()
            // A smaller document's table is kept for the next; a large one's is not.
            XCTAssertEqual(keys.slotCount, count == 40 ? 0 : slots, "after \(slots) slots")
            for number in 0..<count {
                XCTAssertNil(keys.note(fingerprint(number), at: RecordLocation(inputIndex: 0, line: number)))
            }
            XCTAssertTrue(keys.contains(fingerprint(count - 1)))
            XCTAssertFalse(keys.contains(fingerprint(count)))
        }
        XCTAssertGreaterThan(keys.slotCount, 0)
    }
}
