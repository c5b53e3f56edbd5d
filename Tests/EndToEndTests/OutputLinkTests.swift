import Foundation
import TestSupport
import XCTest

/// No output follows a symbolic link it did not make (docs/reports.md#report-files): links
/// planted at an archive's `.partial` name or at a report's name are replaced, and the files
/// they point to are left as they were.
final class OutputLinkTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    func plantLink(at path: String) throws -> String {
        let victim = directory + "/victim-\(UUID().uuidString)"
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
        return victim
    }

    func assertUntouched(_ victim: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n", file: file, line: line)
    }

    func assertRegularFile(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let type = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
        XCTAssertEqual(type, .typeRegular, path, file: file, line: line)
    }

    /// A report that cannot be written (a file size limit stands in for a full disk) is exit 3
    /// with its own message, after the summary of what the run did; no empty or partial
    /// report.json is left, nor a temporary file.
    func testAReportThatCannotBeWrittenIsExit3AndLeavesNoPartFile() throws {
        let reports = directory + "/reports"
        let limited = try ImporterProcess.runWithFileSizeLimit(
            1, ["validate", "Pipelines/locations.yaml", "--quiet", "--report-dir", reports])
        XCTAssertEqual(limited.status, 3, limited.stderr)
        XCTAssertTrue(
            limited.stderr.contains("status: succeeded"),
            "the summary of what the run did comes first: \(limited.stderr)")
        XCTAssertTrue(limited.stderr.contains("the run's reports could not be written to \(reports)"), limited.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: reports + "/report.json"))
        let left = try FileManager.default.contentsOfDirectory(atPath: reports).filter { $0.hasPrefix(".") }
        XCTAssertEqual(left, [], "no temporary file is left")
    }

    func testReportsAndArchivesReplaceLinksAtTheirNames() throws {
        let reports = directory + "/reports/locations"
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
        let victims = try ["report.json", "junit.xml", "rejects.ndjson"].map { try plantLink(at: reports + "/" + $0) }
        let run = try ImporterProcess.run(
            ["run", "Pipelines/locations.yaml", "--quiet"], environment: ["OUT_DIR": directory])
        XCTAssertEqual(run.status, 0, run.stderr)
        for victim in victims { try assertUntouched(victim) }
        for name in ["report.json", "junit.xml", "rejects.ndjson"] { try assertRegularFile(reports + "/" + name) }
        XCTAssertEqual(try ImporterProcess.report(in: reports).string("status"), "succeeded")

        for archive in ["backup.tar.gz", "backup.tar.zst", "backup.zip"] {
            let out = directory + "/" + archive
            let partial = try plantLink(at: out + ".partial")
            let final = try plantLink(at: out)
            let export = try ImporterProcess.run(
                ["export", "Pipelines/locations.yaml", "--out", out], environment: ["OUT_DIR": directory])
            XCTAssertEqual(export.status, 0, export.stderr)
            try assertUntouched(partial)
            try assertUntouched(final)
            try assertRegularFile(out)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out + ".partial"))
        }
    }
}
