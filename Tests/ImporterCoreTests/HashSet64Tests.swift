import XCTest

@testable import ImporterCore

/// The hash tables of key detection: counts and implications as a `Set` and a `Dictionary`
/// would give them, across the growth of tables that start small.
final class HashSet64Tests: XCTestCase {
    /// Hashes 1…distinct (spread, never 0), `count` of them in a shuffled order.
    private func hashes(_ count: Int, distinct: Int) -> [UInt64] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { KeyHash.mix(UInt64($0 % distinct) + 1) | 1 }.shuffled(using: &generator)
    }

    func testDistinctCountsAsASetCounts() {
        for (count, distinct) in [
            (0, 1), (1, 1), (5, 5), (4095, 4095), (4096, 4096), (4097, 4097), (50_000, 3), (50_000, 20_000),
            (100_000, 100_000),
        ] {
            let values = hashes(count, distinct: distinct)
            XCTAssertEqual(HashSet64.distinctCount(values), Set(values).count, "\(count) of \(distinct)")
            XCTAssertEqual(
                HashSet64.allDistinct(values, count: count), Set(values).count == count, "\(count) of \(distinct)")
        }
    }

    func testAnImplicationHoldsUntilAKeyGoesWithTwoValues() {
        for keys in [10, 5000, 40_000] {
            let implier = hashes(keys * 3, distinct: keys)
            let implied = implier.map { KeyHash.mix($0 % 7) }
            XCTAssertTrue(ImplicationCheck.holds(implier, implied), "\(keys) keys")
            // A key seen again with another value, last or first.
            XCTAssertFalse(ImplicationCheck.holds(implier + [implier[0]], implied + [implied[0] &+ 1]), "\(keys) keys")
            XCTAssertFalse(ImplicationCheck.holds([implier[0]] + implier, [implied[0] &+ 1] + implied), "\(keys) keys")
            XCTAssertTrue(ImplicationCheck.holds(implier + [implier[0]], implied + [implied[0]]), "\(keys) keys")
        }
    }
}
