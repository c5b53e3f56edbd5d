import Foundation
import TestSupport
import XCTest

/// One writer per store (docs/writes.md#one-writer-per-store): runs started on one SQLite store
/// at the same moment never share it. Each either holds it for its whole duration or exits 2
/// naming the run that holds it; every exit 0 means its rows are in the store.
final class StoreLockTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    /// The sample pipeline into `folder` (its store and reports there).
    func run(into folder: String, _ extra: [String] = []) -> Process {
        let process = ImporterProcess.start(
            ["run", "Pipelines/locations.yaml", "--quiet"] + extra, environment: ["OUT_DIR": folder])
        process.standardOutput = FileHandle.nullDevice
        return process
    }

    /// The entity tables as `sqlite3 .dump` writes them.
    func dump(_ folder: String) throws -> String {
        try ImporterProcess.sqlite(folder + "/locations.sqlite", ".dump \"AWS-Locations\" Checkin")
    }

    func testRunsStartedTogetherLeaveTheStoreOfOneRun() throws {
        let single = directory + "/single"
        let first = run(into: single)
        try first.run()
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 0)
        let expected = try dump(single)
        XCTAssertTrue(expected.contains("INSERT INTO Checkin"))

        var refused = 0
        for round in 0..<14 {
            let folder = directory + "/round-\(round)"
            let count = 2 + round % 7
            var processes: [(Process, Pipe, waits: Bool)] = []
            for index in 0..<count {
                // Half of them wait for the store: they run after the first and find it done.
                let waits = index % 2 == 1
                let process = run(into: folder, waits ? ["--wait", "120"] : [])
                let errors = Pipe()
                process.standardError = errors
                processes.append((process, errors, waits))
            }
            for (process, _, _) in processes { try process.run() }
            var succeeded = 0
            for (process, errors, waits) in processes {
                let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                switch process.terminationStatus {
                case 0:
                    succeeded += 1
                case 2:
                    refused += 1
                    XCTAssertFalse(waits, "round \(round): a run with --wait 120 was refused: \(message)")
                    XCTAssertTrue(message.contains("store in use by run "), message)
                    XCTAssertTrue(message.contains("(pid "), message)
                default:
                    XCTFail("round \(round): exit \(process.terminationStatus): \(message)")
                }
            }
            XCTAssertGreaterThanOrEqual(succeeded, count / 2, "round \(round): every run that waits succeeds")
            // Every run has ended: whichever exited 0, its rows are these.
            XCTAssertEqual(try dump(folder), expected, "round \(round)")
            let report = try ImporterProcess.report(in: folder + "/reports/locations")
            XCTAssertEqual(
                report.string("status"), "succeeded", "round \(round): the report left is a run's that holds its rows")
        }
        XCTAssertGreaterThan(refused, 0, "runs started together were all let in one after another")
    }

    /// A DynamoDB run locks its checkpoints in its report directory: a second run with the same
    /// report directory is refused before it opens the tables.
    func testADynamoDBRunLocksItsReportDirectorysCheckpoints() throws {
        let reports = directory + "/reports/locations-dynamodb"
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
        let held = open(reports + "/checkpoint.json.lock", O_RDWR | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(held, 0)
        defer { close(held) }
        XCTAssertEqual(flock(held, LOCK_EX | LOCK_NB), 0)
        let run = try ImporterProcess.run(
            ["run", "Pipelines/locations-dynamodb.yaml", "--quiet"],
            environment: ["OUT_DIR": directory, "AWS_ENDPOINT_URL": "http://127.0.0.1:9"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("checkpoint.json: store in use by "), run.stderr)
    }

    /// Readers share the store; a writer holds it alone. The lock is taken here by the test,
    /// as another process would hold it.
    func testExportSharesTheStoreWithReadersOnly() throws {
        let folder = directory + "/store"
        let first = run(into: folder)
        try first.run()
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 0)
        let lockFile = folder + "/locations.sqlite.lock"

        let held = open(lockFile, O_RDWR)
        XCTAssertGreaterThanOrEqual(held, 0)
        defer { close(held) }
        XCTAssertEqual(flock(held, LOCK_SH | LOCK_NB), 0)
        let export = try ImporterProcess.run(
            ["export", "Pipelines/locations.yaml", "--out", directory + "/backup.tar.gz"],
            environment: ["OUT_DIR": folder])
        XCTAssertEqual(export.status, 0, "an export reads beside another reader: \(export.stderr)")
        let writer = try ImporterProcess.run(
            ["run", "Pipelines/locations.yaml", "--quiet", "--read-unchanged"], environment: ["OUT_DIR": folder])
        XCTAssertEqual(writer.status, 2, writer.stderr)
        XCTAssertTrue(writer.stderr.contains("store in use by "), writer.stderr)
        let restore = try ImporterProcess.run(
            ["restore", directory + "/backup.tar.gz", "Pipelines/locations.yaml", "--quiet"],
            environment: ["OUT_DIR": folder])
        XCTAssertEqual(restore.status, 2, restore.stderr)
        XCTAssertTrue(restore.stderr.contains("store in use by "), restore.stderr)

        XCTAssertEqual(flock(held, LOCK_EX | LOCK_NB), 0)
        let reader = try ImporterProcess.run(
            ["export", "Pipelines/locations.yaml", "--out", directory + "/backup2.tar.gz"],
            environment: ["OUT_DIR": folder])
        XCTAssertEqual(reader.status, 2, reader.stderr)
        XCTAssertTrue(reader.stderr.contains("store in use by "), reader.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/backup2.tar.gz"))
        let migrate = try ImporterProcess.run(
            ["migrate", "Pipelines/locations.yaml", "--to", "2"], environment: ["OUT_DIR": folder])
        XCTAssertEqual(migrate.status, 2, migrate.stderr)
        XCTAssertTrue(migrate.stderr.contains("store in use by "), migrate.stderr)

        // Let go after a moment: a command with --wait takes the store then.
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { _ = flock(held, LOCK_UN) }
        let waiting = try ImporterProcess.run(
            ["run", "Pipelines/locations.yaml", "--quiet", "--read-unchanged", "--wait", "60"],
            environment: ["OUT_DIR": folder])
        XCTAssertEqual(waiting.status, 0, waiting.stderr)
        XCTAssertTrue(waiting.stderr.contains("waiting up to 60 s"), waiting.stderr)
    }
}
