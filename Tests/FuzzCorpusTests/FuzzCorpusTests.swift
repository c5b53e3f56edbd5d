import Foundation
import ImporterCore
@testable import ImporterFuzzing
import XCTest

/// Every input kept in Fuzz/Corpus (seeds, and inputs that once crashed or hung a target) run
/// through its fuzz target as `scripts/fuzz` runs it: no crash, no hang, no broken invariant.
final class FuzzCorpusTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    func testEveryCorpusInputPassesItsTarget() throws {
        for target in FuzzTarget.allCases {
            let directory = Self.corpus.appendingPathComponent(target.rawValue)
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            XCTAssertGreaterThanOrEqual(files.count, 3, "\(target.rawValue): a seed corpus")
            for file in files {
                let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(file)))
                XCTAssertNoThrow(try target.run(bytes), "\(target.rawValue)/\(file)")
            }
        }
    }

    /// The invariants catch what they are there for: a reader that never ends (as the JSON
    /// array reader did on `[}]`) is a violation, not a hang.
    func testAReaderThatNeverEndsIsAViolation() {
        final class Endless: RecordReader {
            let bytesRead: Int64 = 0
            func next() throws -> SourceRecord? { SourceRecord(line: 1, byteOffset: 0, raw: [], names: [], values: []) }
        }
        XCTAssertThrowsError(try ReaderInvariants.check(Array("[}]".utf8)) { Endless() }) { error in
            XCTAssertTrue("\(error)".contains("more than 5 records from 3 bytes"), "\(error)")
        }
    }
}
