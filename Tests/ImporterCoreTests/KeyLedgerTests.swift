import XCTest
@testable import ImporterCore

final class KeyLedgerTests: XCTestCase {
    func testKeyLedgerFindsDuplicatesAndReferences() throws {
        let ledger = KeyLedger()
        XCTAssertNil(try ledger.record(.string("x"), entity: "A", at: RecordLocation(inputIndex: 0, line: 2)))
        XCTAssertNil(try ledger.record(.string("x"), entity: "B", at: RecordLocation(inputIndex: 1, line: 3)))
        XCTAssertEqual(
            try ledger.record(.string("x"), entity: "A", at: RecordLocation(inputIndex: 2, line: 9)),
            RecordLocation(inputIndex: 0, line: 2))
        XCTAssertTrue(try ledger.contains(.string("x"), entity: "B"))
        XCTAssertFalse(try ledger.contains(.string("y"), entity: "B"))
    }

    /// Past its memory limit the ledger spills to disk and still finds every key.
    func testKeyLedgerSpillsToDiskAndStillFindsEveryKey() throws {
        let ledger = KeyLedger(memoryLimit: 1000)
        for line in 1...5000 {
            XCTAssertNil(
                try ledger.record(.integer(Int64(line)), entity: "A", at: RecordLocation(inputIndex: 3, line: line)))
        }
        for line in stride(from: 1, through: 5000, by: 7) {
            XCTAssertEqual(
                try ledger.record(.integer(Int64(line)), entity: "A", at: RecordLocation(inputIndex: 0, line: 9999)),
                RecordLocation(inputIndex: 3, line: line))
        }
        XCTAssertTrue(try ledger.contains(.integer(1), entity: "A"))
        XCTAssertTrue(try ledger.contains(.integer(4999), entity: "A"))
        XCTAssertFalse(try ledger.contains(.integer(1), entity: "B"))
        XCTAssertFalse(try ledger.contains(.integer(5001), entity: "A"))
    }

    /// A document's keys, recorded pending, are found by the checks that follow them (a
    /// duplicate within the document, too); taken back, they leave the ledger as it was, where
    /// they extended a run of slots that committed keys began.
    func testKeysTakenBackLeaveTheLedgerAsItWas() throws {
        // A small table (32 slots): keys recorded pending land in runs of slots that
        // committed keys began, and extend them.
        let ledger = KeyLedger(memoryLimit: 16)
        func at(_ line: Int) -> RecordLocation { RecordLocation(inputIndex: 0, line: line) }
        let committed = (1...6).map { UInt64($0) << 32 | 7 }, pending = (1...6).map { UInt64($0) << 40 | 7 }
        XCTAssertTrue(try ledger.beginPending(count: committed.count))
        for (line, fingerprint) in committed.enumerated() {
            XCTAssertNil(try ledger.recordPending(fingerprint: fingerprint, at: at(line)))
        }
        ledger.commitPending()
        XCTAssertTrue(try ledger.beginPending(count: pending.count + 1))
        for (line, fingerprint) in pending.enumerated() {
            XCTAssertNil(try ledger.recordPending(fingerprint: fingerprint, at: at(100 + line)))
        }
        XCTAssertEqual(try ledger.recordPending(fingerprint: pending[2], at: at(999)), at(102))
        XCTAssertEqual(try ledger.recordPending(fingerprint: committed[4], at: at(999)), at(4))
        XCTAssertTrue(try ledger.contains(fingerprint: pending[5]))
        ledger.rollBackPending()
        for (line, fingerprint) in committed.enumerated() {
            XCTAssertEqual(try ledger.firstOccurrence(fingerprint: fingerprint), at(line))
        }
        for fingerprint in pending { XCTAssertFalse(try ledger.contains(fingerprint: fingerprint)) }
        // Recorded again, each is new and is found.
        XCTAssertTrue(try ledger.beginPending(count: pending.count))
        for (line, fingerprint) in pending.reversed().enumerated() {
            XCTAssertNil(try ledger.recordPending(fingerprint: fingerprint, at: at(200 + line)))
        }
        ledger.commitPending()
        XCTAssertEqual(try ledger.firstOccurrence(fingerprint: pending[5]), at(200))
        XCTAssertEqual(try ledger.firstOccurrence(fingerprint: committed[0]), at(0))
    }

    /// The keys in memory move to disk before a document's keys are recorded pending, never
    /// while they are: a document with more keys than memory holds is declined.
    func testPendingKeysNeverSpillToDisk() throws {
        let ledger = KeyLedger(memoryLimit: 100)
        for line in 1...90 {
            XCTAssertNil(
                try ledger.record(.integer(Int64(line)), entity: "A", at: RecordLocation(inputIndex: 0, line: line)))
        }
        XCTAssertFalse(try ledger.beginPending(count: 100))
        XCTAssertTrue(try ledger.beginPending(count: 20))
        let keys = (91...110).map { ledger.fingerprint(of: .integer(Int64($0)), entity: "A") }
        for (line, fingerprint) in zip(91..., keys) {
            XCTAssertNil(
                try ledger.recordPending(fingerprint: fingerprint, at: RecordLocation(inputIndex: 0, line: line)))
        }
        ledger.rollBackPending()
        for line in [1, 45, 90] { XCTAssertTrue(try ledger.contains(.integer(Int64(line)), entity: "A")) }
        for fingerprint in keys { XCTAssertNil(try ledger.firstOccurrence(fingerprint: fingerprint)) }
    }

    /// The filter of every run is made anew as the runs outgrow it, and still lets every key
    /// through to its run.
    func testSpilledRunsFindEveryKeyAsTheirFilterGrows() throws {
        let spilled = try SpilledFingerprints(firstCapacity: 1500)
        var random = SystemRandomNumberGenerator()
        var added: [UInt64] = []
        for run in 0..<12 {
            let keys = (0..<1000).map { _ in UInt64.random(in: 1...UInt64.max, using: &random) }.sorted()
            try spilled.append(sorted: keys.map { FingerprintTable.Entry(fingerprint: $0, value: UInt64(run)) })
            added += keys
            for (index, key) in added.enumerated() where index % 97 == 0 {
                XCTAssertEqual(try spilled.find(key), UInt64(index / 1000), "after run \(run)")
            }
        }
        let others = (0..<10_000).map { _ in UInt64.random(in: 1...UInt64.max, using: &random) }
        XCTAssertLessThan(try others.filter { try spilled.find($0) != nil }.count, 10)
    }

    /// The spilled runs' filters: every key added is found; of keys never added, about 1% pass.
    func testBloomFilterHasNoFalseNegativesAndFewFalsePositives() {
        var random = SystemRandomNumberGenerator()
        let added = (0..<100_000).map { _ in UInt64.random(in: 1...UInt64.max, using: &random) }
        var filter = BloomFilter(capacity: added.count)
        for hash in added { filter.insert(hash) }
        XCTAssertTrue(added.allSatisfy(filter.mayContain))
        let others = (0..<100_000).map { _ in UInt64.random(in: 1...UInt64.max, using: &random) }
        let passed = others.filter(filter.mayContain).count
        XCTAssertLessThan(passed, 2_000, "\(passed) of 100,000 keys never added pass the filter")
    }
}

final class FingerprintTests: XCTestCase {
    /// Reference values from the `xxhash` Python package (`xxhash.xxh64(text, seed).intdigest()`).
    func testXXH64MatchesTheReferenceImplementation() {
        func hash(_ text: String, _ seed: UInt64) -> UInt64 {
            Array(text.utf8).withUnsafeBytes { XXH64.hash($0, seed: seed) }
        }
        let long = "The quick brown fox jumps over the lazy dog, twice over: 0123456789!"
        XCTAssertEqual(hash("", 0), 0xEF46_DB37_51D8_E999)
        XCTAssertEqual(hash("abc", 0), 0x44BC_2CF5_AD77_0999)
        XCTAssertEqual(hash(long, 0), 0xE39B_AC34_DF87_4134)
        XCTAssertEqual(hash("", UInt64.max - 12344), 0xE76A_F845_1142_B0B3)
        XCTAssertEqual(hash("abc", UInt64.max - 12344), 0xC056_F8E1_2A32_6ADE)
        XCTAssertEqual(hash(long, UInt64.max - 12344), 0x6026_1376_3090_6871)
    }

    /// A tag and its payload appended in one call are the tag, the payload's count and its
    /// bytes, appended one by one.
    func testATagAndItsPayloadInOneCallAreTheBytesOfTwo() {
        let one = Fingerprint(), two = Fingerprint()
        let text = Array("Ørsně, long enough to grow the buffer past its first 256 bytes ".utf8)
        for round in 0..<8 {
            text.withUnsafeBytes { one.append(UInt8(3), counted: $0) }
            one.append(UInt8(1), UInt64(round) << 40 | 0xABCD)
            two.append(UInt8(3))
            two.append(UInt64(text.count))
            for byte in text { two.append(byte) }
            two.append(UInt8(1))
            two.append(UInt64(round) << 40 | 0xABCD)
        }
        XCTAssertEqual(one.value, two.value)
    }

    func testTextsOfOneLengthThatDifferInAByteDiffer() {
        let image = Fingerprint()
        func print(_ text: String) -> UInt64 {
            image.reset()
            Array(text.utf8).withUnsafeBytes { image.append(UInt8(3), counted: $0) }
            return image.value
        }
        XCTAssertEqual(print("Anstad"), print("Anstad"))
        XCTAssertNotEqual(print("Anstad"), print("Anstat"))
        XCTAssertNotEqual(print("Anstad"), print("anstad"))
    }
}
