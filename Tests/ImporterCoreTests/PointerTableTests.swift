import XCTest

@testable import ImporterCore

/// The JSON pointers of a document's elements, packed in one buffer (docs/documents.md).
final class PointerTableTests: XCTestCase {
    /// Elements of a random tree, each appended under its parent, read back as the pointers
    /// spelled out: positions of one to five digits, arrays at three depths, a key that JSON
    /// pointers escape, and parents whose pointers are not the last ones appended.
    func testEachElementsPointerIsItsParentsArrayAndPosition() {
        var generator = SystemRandomNumberGenerator()
        let segments = ["/districts", "/towns", "/a~1b~0c"].map { Array($0.utf8) }
        var table = PointerTable()
        var expected: [String] = []
        var depths: [Int] = []
        var lastPosition: [Int?: Int] = [:]
        for _ in 0..<3_000 {
            // A parent: the root, or any element but the deepest.
            let candidates = depths.indices.filter { depths[$0] < 2 }
            let parent: Int? =
                candidates.isEmpty || Int.random(in: 0..<4, using: &generator) == 0
                ? nil : candidates.randomElement(using: &generator)
            let depth = parent.map { depths[$0] + 1 } ?? 0
            let jump = [1, 1, 1, 9, 97, 990, 12_345].randomElement(using: &generator)!
            let position =
                (lastPosition[parent].map { $0 + jump }) ?? [0, 7, 10, 99_999].randomElement(using: &generator)!
            lastPosition[parent] = position
            table.append(position: position, of: segments[depth], under: parent)
            expected.append(
                (parent.map { expected[$0] } ?? "") + String(decoding: segments[depth], as: UTF8.self) + "/\(position)")
            depths.append(depth)
        }
        XCTAssertEqual(table.count, expected.count)
        for index in expected.indices where table[index] != expected[index] {
            XCTFail("element \(index): \(table[index]), not \(expected[index])")
            break
        }
        XCTAssertTrue(
            expected.contains { $0.hasPrefix("/districts/") && $0.contains("/towns/") && $0.contains("/a~1b~0c/") })
    }
}
