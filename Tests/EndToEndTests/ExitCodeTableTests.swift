import Foundation
import TestSupport
import XCTest

/// Every row of the exit-code table (docs/reports.md#exit-codes), through the commands that
/// used to end with another code: 0, 1, 2 for every usage or configuration error (nothing
/// written), 3 for a run that stopped, 4 for an archive that does not match its manifest.
final class ExitCodeTableTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    var model: String { ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path }
    var sample: String { ImporterProcess.root.appendingPathComponent("SampleData/Locations").path }
    var store: String { directory + "/store.sqlite" }

    /// A pipeline loading `input` as Locations into `store`.
    func pipeline(_ input: String, maxErrors: Int = 1000) throws -> String {
        let file = directory + "/pipeline-\(UUID().uuidString).yaml"
        try """
        model: \(model)
        sources:
          - { entity: Location, path: "\(input)", format: csv }
        destination: { path: \(store) }
        errors: { maxErrors: \(maxErrors) }
        report: { directory: \(directory)/reports }
        """.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    func expect(
        _ status: Int32, _ arguments: [String], saying text: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let result = try ImporterProcess.run(arguments, environment: ["OUT_DIR": directory])
        XCTAssertEqual(
            result.status, status, "importer \(arguments.joined(separator: " ")): \(result.stderr)", file: file,
            line: line)
        XCTAssertTrue(result.stderr.contains(text), "expected '\(text)' in: \(result.stderr)", file: file, line: line)
        XCTAssertFalse(result.stderr.contains("NSCocoaErrorDomain"), result.stderr, file: file, line: line)
    }

    func test0And1() throws {
        try expect(0, ["run", try pipeline(sample + "/locations.csv"), "--quiet"], saying: "status: succeeded")
        try expect(1, ["run", try pipeline(sample + "/bad/locations-bad.csv"), "--quiet"], saying: "status: partial")
    }

    func test2UsageAndConfigurationErrorsWriteNothing() throws {
        let good = try pipeline(sample + "/locations.csv")
        try expect(2, ["run", good, "--no-such-option"], saying: "Unknown option '--no-such-option'")
        try expect(2, ["run"], saying: "Missing expected argument")
        try expect(2, ["bogus"], saying: "Unexpected argument 'bogus'")
        try expect(2, ["help", "bogus"], saying: "no command 'bogus'")
        try expect(2, ["help", "model", "bogus"], saying: "no command 'bogus' in model")
        XCTAssertEqual(try ImporterProcess.run(["help", "model", "infer"]).status, 0)

        // Inputs that are not files: refused before the store is created.
        try FileManager.default.createDirectory(atPath: directory + "/folder", withIntermediateDirectories: true)
        try expect(2, ["run", try pipeline(directory + "/folder"), "--quiet"], saying: "is a directory, not a file")
        XCTAssertEqual(mkfifo(directory + "/fifo", 0o600), 0)
        try expect(2, ["run", try pipeline(directory + "/fifo"), "--quiet"], saying: "is a pipe, not a file")
        try expect(2, ["run", try pipeline("/dev/null"), "--quiet"], saying: "is a device, not a file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store))

        // A report directory that cannot take reports: refused before the store is opened.
        try Data().write(to: URL(fileURLWithPath: directory + "/a-file"))
        try expect(
            2, ["run", good, "--quiet", "--report-dir", directory + "/a-file"], saying: "the report directory is a file"
        )
        // A folder that cannot be made (its parent is a file), which holds for root too.
        try expect(
            2, ["run", good, "--quiet", "--report-dir", directory + "/a-file/reports"],
            saying: "cannot write reports here")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store))

        try expect(
            2, ["restore", directory + "/missing.tar.gz", good, "--quiet"], saying: "the archive does not exist")
        try Data("not a database, just text\n".utf8).write(to: URL(fileURLWithPath: store))
        try expect(2, ["inspect", good], saying: "not a store the importer can read")
    }

    func test3AndFour() throws {
        // Past maxErrors with more input to read: the run stops.
        try expect(
            3, ["run", try pipeline(sample + "/bad/locations-bad.csv", maxErrors: 0), "--quiet"],
            saying: "status: aborted")

        // An archive whose data was changed after the export: refused whole.
        let good = try pipeline(sample + "/locations.csv")
        try expect(0, ["run", good, "--quiet"], saying: "status: succeeded")
        let archive = directory + "/backup.tar"
        try expect(0, ["export", good, "--out", archive], saying: "exported to")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        let at = try XCTUnwrap(bytes.range(of: Data("loc-0001".utf8))).lowerBound
        bytes[at] = UInt8(ascii: "L")
        try bytes.write(to: URL(fileURLWithPath: archive))
        try FileManager.default.removeItem(atPath: store)
        try expect(4, ["restore", archive, good, "--quiet"], saying: archive)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store))
    }
}
