import Foundation
import ImporterSQLite
import Logging
import TestSupport
import XCTest

/// A `StoreLock` that waits says so through the `Logger` it is given, not on stderr
/// (docs/library.md#warnings-and-progress).
final class StoreLockNoticeTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "lock-\(UUID().uuidString)"

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    func testWaitingForAHeldStoreIsANoticeOfItsLogger() throws {
        let store = directory + "/store.sqlite"
        let held = try StoreLock(store: store, access: .exclusive, holder: .init(command: "run", runId: "first"))
        defer { held.release() }
        let logs = LogCapture()
        let (outcome, stderr) = try StandardErrorCapture.capture {
            Result {
                try StoreLock(
                    store: store, access: .exclusive, holder: .init(command: "run", runId: "second"), wait: 0.2,
                    logger: logs.logger(label: "importer.sqlite"))
            }
        }
        XCTAssertThrowsError(try outcome.get()) { XCTAssertTrue($0 is StoreInUseError, "\($0)") }
        XCTAssertEqual(
            logs.entries,
            [
                .init(
                    label: "importer.sqlite", level: .notice,
                    message: "\(store) is in use by run first (pid \(getpid())); waiting up to 1 s")
            ])
        XCTAssertEqual(stderr, "")
    }

    func testAFreeStoreIsTakenWithoutANotice() throws {
        let logs = LogCapture()
        let lock = try StoreLock(
            store: directory + "/store.sqlite", access: .exclusive, holder: .init(command: "run", runId: "only"),
            wait: 1, logger: logs.logger())
        lock.release()
        XCTAssertEqual(logs.entries, [])
    }
}
