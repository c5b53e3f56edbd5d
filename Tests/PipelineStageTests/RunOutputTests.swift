import Foundation
@testable import ImporterCore
import ImporterFormats
import ImporterSQLite
import Logging
import Synchronization
import TestSupport
import XCTest

/// What a run tells its caller while it goes (docs/library.md#warnings-and-progress): warnings
/// through the `Logger` of its options, progress to its `ProgressHandler`, and nothing on stderr.
final class RunOutputTests: XCTestCase {
    func testAWarningGoesToTheRunsLoggerNotToStandardError() throws {
        let fixture = try StageFixture([("Location", StageFixture.locations(3))])
        let logs = LogCapture()
        var options = RunOptions(reportDirectory: fixture.directory + "/reports", resume: true)
        options.logger = logs.logger(label: "importer.pipeline")
        let (report, stderr) = try StandardErrorCapture.capture { try run(fixture, options) }
        XCTAssertEqual(report.totals.inserted, 3)
        XCTAssertEqual(
            logs.entries,
            [
                .init(
                    label: "importer.pipeline", level: .warning,
                    message: "--resume: no interrupted run to continue; starting from the beginning")
            ])
        XCTAssertEqual(stderr, "")
    }

    func testProgressReachesTheHandlerAndEndsWithAFinalReport() throws {
        let rows = 5000
        let fixture = try StageFixture([("Location", StageFixture.locations(rows))])
        let size = Int64(try Data(contentsOf: URL(fileURLWithPath: fixture.inputs[0].path)).count)
        let reports = Mutex<[RunProgress]>([])
        var options = RunOptions(reportDirectory: fixture.directory + "/reports")
        options.progress = ProgressHandler(every: 0) { progress in reports.withLock { $0.append(progress) } }
        let (_, stderr) = try StandardErrorCapture.capture { try run(fixture, options) }
        let seen = reports.withLock { $0 }
        let updates = seen.dropLast()
        XCTAssertFalse(updates.isEmpty, "a report at every part cut (or 1024 records parsed) with no interval")
        for update in updates {
            XCTAssertFalse(update.isFinal)
            XCTAssertEqual(update.input, "0.csv")
            XCTAssertEqual(update.totalBytes, size)
            XCTAssertGreaterThan(update.bytesRead, 0)
            XCTAssertLessThanOrEqual(update.bytesRead, size)
        }
        // Records of a file cut into parts are counted as the part parsers finish: they may lag.
        XCTAssertEqual(updates.map(\.records), updates.map(\.records).sorted(), "records only grow")
        XCTAssertEqual(updates.map(\.bytesRead), updates.map(\.bytesRead).sorted(), "bytes only grow")
        let last = try XCTUnwrap(seen.last)
        XCTAssertTrue(last.isFinal)
        XCTAssertEqual(last.bytesRead, size)
        XCTAssertEqual(last.fraction, 1)
        XCTAssertEqual(stderr, "")
    }

    func testWithoutAHandlerOrALoggerARunPrintsNothing() throws {
        let fixture = try StageFixture([("Location", StageFixture.locations(3000))])
        var options = RunOptions(reportDirectory: fixture.directory + "/reports", resume: true)
        options.logger = Logger(label: "importer.pipeline") { _ in SwiftLogNoOpLogHandler() }
        let (report, stderr) = try StandardErrorCapture.capture { try run(fixture, options) }
        XCTAssertEqual(report.totals.inserted, 3000)
        XCTAssertEqual(stderr, "")
    }

    private func run(_ fixture: StageFixture, _ options: RunOptions) throws -> RunReport {
        let store = try SQLiteStore(path: fixture.config.destination.path!)
        defer { store.close() }
        try store.prepare(for: fixture.model)
        return try PipelineRun(
            config: fixture.config, model: fixture.model, store: store, options: options,
            makeReader: ReaderFactory.makeReader
        ).start()
    }
}
