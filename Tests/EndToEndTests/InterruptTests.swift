import Foundation
import TestSupport
import XCTest

/// SIGINT and SIGTERM stop a run cleanly (docs/reports.md#status), and an input that changes
/// under a run or between a run and its `--resume` is never taken for the one that was read.
final class InterruptTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    static let rows = 400_000
    static let batchSize = 10_000

    var store: String { directory + "/store.sqlite" }
    var reports: String { directory + "/reports" }
    var checkins: String { directory + "/checkins.csv" }

    /// The inputs and pipeline; from `badFrom` on, every 50th rating is not a number.
    func writeInputs(badFrom: Int = .max, maxErrors: Int = 1000) throws -> String {
        try LocationDumps.write(
            in: directory, rows: Self.rows,
            rating: { $0 >= badFrom && $0 % 50 == 0 ? "bad" : String($0 % 5 + 1) })
        return try LocationDumps.pipeline(
            in: directory, write: "{ batchSize: \(Self.batchSize), bulk: false }",
            errors: "{ maxErrors: \(maxErrors) }")
    }

    func stored() -> Int {
        Int((try? ImporterProcess.sqlite(store, "SELECT count(*) FROM Checkin")) ?? "") ?? 0
    }

    /// Starts a run and waits until it has committed some Checkins (and not all).
    func startAndWaitForCommits(_ pipeline: String, _ extra: [String] = []) throws -> (Process, Pipe) {
        let process = ImporterProcess.start(["run", pipeline, "--quiet"] + extra)
        let errors = Pipe()
        process.standardError = errors
        // Counted from what is stored already (a resumed run's earlier batches): the run's own
        // commits show that it is past its start, signal handlers included.
        let before = stored()
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning, stored() < before + 2 * Self.batchSize { usleep(10_000) }
        XCTAssertTrue(process.isRunning, "the run finished before it could be interrupted; make it larger")
        return (process, errors)
    }

    func finish(_ running: (Process, Pipe)) -> (status: Int32, stderr: String) {
        let text = String(decoding: running.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        running.0.waitUntilExit()
        return (running.0.terminationStatus, text)
    }

    func testSIGTERMReportsInterruptedAndResumeFinishes() throws {
        let pipeline = try writeInputs()
        let running = try startAndWaitForCommits(pipeline)
        kill(running.0.processIdentifier, SIGTERM)
        let (status, stderr) = finish(running)
        XCTAssertEqual(status, 3, stderr)
        XCTAssertEqual(try ImporterProcess.sqlite(store, "PRAGMA integrity_check"), "ok")

        let report = try ImporterProcess.report(in: reports)
        XCTAssertEqual(report.string("status"), "interrupted")
        XCTAssertEqual(report.int("exitCode"), 3)
        XCTAssertTrue(report.string("abortReason")?.contains("SIGTERM") ?? false)
        XCTAssertEqual(report.string("abortCause"), "interrupted")
        XCTAssertTrue(report.string("abortReason")?.contains("--resume") ?? false)
        let counts = report.objects("entities").first { $0.string("entity") == "Checkin" }!.object("counts")
        let kept = stored()
        XCTAssertEqual(counts.int("inserted"), kept, "the report counts what the store holds")
        XCTAssertLessThan(kept, Self.rows)
        XCTAssertEqual(counts.int("rolledBack"), 0, "nothing written was undone")
        XCTAssertEqual(counts.int("read"), counts.int("inserted") + counts.int("notWritten"))
        let junit = try String(contentsOfFile: reports + "/junit.xml", encoding: .utf8)
        XCTAssertTrue(junit.contains("<failure message=\"interrupted by SIGTERM"), junit)

        let resumed = try ImporterProcess.run(["run", pipeline, "--quiet", "--resume"])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertEqual(stored(), Self.rows)
        XCTAssertEqual(try ImporterProcess.report(in: reports).object("resumed").int("recordsDone"), 100 + kept)
    }

    func testNoStaleReportIsLeftAndASecondSignalStopsAtOnce() throws {
        let pipeline = try writeInputs()
        let first = try ImporterProcess.run(["run", pipeline, "--quiet", "--entities", "Location"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try ImporterProcess.report(in: reports).string("status"), "succeeded")

        // A run killed outright leaves no report, rather than the last run's green one.
        let killed = try startAndWaitForCommits(pipeline)
        kill(killed.0.processIdentifier, SIGKILL)
        _ = finish(killed)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: reports + "/report.json"), "the last run's green report was left")
        XCTAssertFalse(FileManager.default.fileExists(atPath: reports + "/junit.xml"))

        // Two signals: the run ends at once (exit 3) or, if it finished its batch between them,
        // with its own interrupted report; never a green one.
        let running = try startAndWaitForCommits(pipeline, ["--resume"])
        kill(running.0.processIdentifier, SIGINT)
        usleep(20_000)
        kill(running.0.processIdentifier, SIGINT)
        let (status, stderr) = finish(running)
        XCTAssertEqual(status, 3, stderr)
        if let report = try? ImporterProcess.report(in: reports) {
            XCTAssertEqual(report.string("status"), "interrupted")
        } else {
            XCTAssertTrue(stderr.contains("SIGINT again: stopping now"), stderr)
        }
        XCTAssertEqual(try ImporterProcess.sqlite(store, "PRAGMA integrity_check"), "ok")
    }

    func testARunAbortedPastMaxErrorsResumesFromItsCheckpoint() throws {
        let pipeline = try writeInputs(badFrom: Self.rows / 2, maxErrors: 10)
        let aborted = try ImporterProcess.run(["run", pipeline, "--quiet"])
        XCTAssertEqual(aborted.status, 3, aborted.stderr)
        let kept = stored()
        XCTAssertGreaterThan(kept, 0)
        let resumed = try ImporterProcess.run(["run", pipeline, "--quiet", "--resume"])
        XCTAssertTrue(resumed.stderr.contains("resumed run "), resumed.stderr)
        XCTAssertFalse(resumed.stderr.contains("no interrupted run"), resumed.stderr)
        XCTAssertEqual(try ImporterProcess.report(in: reports).object("resumed").int("recordsDone"), 100 + kept)
    }

    /// A bulk load stopped by a full disk (a file size limit stands in for it) says what it
    /// kept: the batch whose commit failed is rolled back; the rows staged before it are built
    /// into the table when its build still fits in the WAL, else not written (they stay for
    /// --resume); and --resume stores the rest.
    func testABulkLoadStoppedByAFullDiskCountsItsStagedRowsNotWritten() throws {
        let pipeline = try writeInputs()
        try String(contentsOfFile: pipeline, encoding: .utf8).replacingOccurrences(of: ", bulk: false", with: "")
            .write(toFile: pipeline, atomically: false, encoding: .utf8)
        let limited = try ImporterProcess.runWithFileSizeLimit(12_000, ["run", pipeline, "--quiet"])
        XCTAssertEqual(limited.status, 3, limited.stderr)

        let report = try ImporterProcess.report(in: reports), totals = report.object("totals")
        XCTAssertEqual(report.string("abortCause"), "store")
        XCTAssertEqual(report.string("storeFailure"), "storage", "the kind of the store's failure, for monitoring")
        XCTAssertLessThanOrEqual(
            totals.int("rolledBack"), Self.batchSize, "only the batch whose commit failed is rolled back")
        XCTAssertGreaterThan(
            totals.int("notWritten") + totals.int("inserted"), Self.rows / 4,
            "the staged rows are built or not written, not rolled back")
        XCTAssertEqual(
            totals.int("read"), totals.int("rolledBack") + totals.int("notWritten") + totals.int("inserted"))
        let checkins = report.objects("entities").first { $0.string("entity") == "Checkin" }?.object("counts")
        XCTAssertEqual(stored(), checkins?.int("inserted"), "what is counted inserted is stored, and no more")

        let resumed = try ImporterProcess.run(["run", pipeline, "--quiet", "--resume"])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertEqual(stored(), Self.rows)
    }

    func testResumeRefusesAnInputChangedPastItsFirstMiB() throws {
        let pipeline = try writeInputs()
        let running = try startAndWaitForCommits(pipeline)
        kill(running.0.processIdentifier, SIGTERM)
        XCTAssertEqual(finish(running).status, 3)

        // The same size, one digit changed near the end: a rating 1 becomes 2.
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: checkins))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size - 200)
        var tail = try XCTUnwrap(handle.readToEnd())
        let digit = try XCTUnwrap(tail.lastIndex { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "4") })
        tail[digit] += 1
        try handle.seek(toOffset: size - 200)
        handle.write(tail)
        try handle.close()

        let resumed = try ImporterProcess.run(["run", pipeline, "--quiet", "--resume"])
        XCTAssertEqual(resumed.status, 2, resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("checkins.csv"), resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("changed since the interrupted run"), resumed.stderr)
    }

    func testAnInputCutWhileItIsReadStopsTheRun() throws {
        let pipeline = try writeInputs()
        let running = try startAndWaitForCommits(pipeline)
        // Cut the file at a line boundary, in place, while it is read.
        let text = try String(contentsOfFile: checkins, encoding: .utf8)
        let cut = text.index(text.startIndex, offsetBy: text.utf8.count * 3 / 4)
        let lineEnd = text[cut...].firstIndex(of: "\n")!
        XCTAssertEqual(truncate(checkins, off_t(text.utf8.distance(from: text.startIndex, to: lineEnd) + 1)), 0)
        let (status, stderr) = finish(running)
        XCTAssertEqual(status, 3, stderr)
        let report = try ImporterProcess.report(in: reports)
        XCTAssertEqual(report.string("status"), "aborted")
        XCTAssertTrue(
            report.string("abortReason")?.contains("checkins.csv changed while it was read") ?? false,
            report.string("abortReason") ?? "")
    }
}
