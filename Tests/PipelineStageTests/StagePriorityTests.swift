import XCTest

@testable import ImporterCore

/// The part parsers' threads give way to the stages after them (README.md, the pipeline's
/// stages): a thread reading ahead is nicer than the one that started it; others are not.
final class StagePriorityTests: XCTestCase {
    func testAThreadReadingAheadIsTenNicerAndTheOthersAreLeftAsTheyWere() throws {
        #if os(Linux)
            let own = Self.niceness()
            let normal = StageThread("normal", owning: ()) { _ in Self.niceness() }.join()
            let readingAhead = StageThread("reading ahead", owning: (), priority: .readingAhead) { _ in
                Self.niceness()
            }.join()
            XCTAssertEqual(normal, own)
            XCTAssertEqual(readingAhead, min(own + 10, 19))
            XCTAssertEqual(Self.niceness(), own, "the thread that started them is left as it was")
        #else
            throw XCTSkip("threads have nice values of their own on Linux only")
        #endif
    }

    #if os(Linux)
        /// The calling thread's nice value.
        private static func niceness() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
    #endif
}
