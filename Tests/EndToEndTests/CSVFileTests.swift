import Foundation
import TestSupport
import XCTest

/// CSV files that cannot be read as rows (docs/pipeline.md#sources): a header naming a column
/// twice refuses the run before anything is written (exit 2, naming the file and the column);
/// UTF-16 text without a byte order mark is one `encoding` rejection for the file, not one per
/// row; an empty input is a warning and the run goes on.
final class CSVFileTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private let rows =
        "locationId,name,latitude,longitude,createdAt\nloc-1,One,1.5,2.5,2024-03-01T10:15:30Z\nloc-2,Two,3.5,4.5,2024-03-01T10:15:30Z\n"

    /// A pipeline `p.yaml` loading Locations from `sources`, in order.
    private func pipeline(_ sources: [String]) throws {
        let model = ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        try """
        model: \(model)
        sources:
        \(sources.map { "  - { entity: Location, path: \($0), format: csv }" }.joined(separator: "\n"))
        destination: { path: store.db }
        errors: { maxErrors: 100, maxErrorRatio: 1 }
        report: { directory: r }
        """.write(toFile: directory + "/p.yaml", atomically: true, encoding: .utf8)
    }

    private func write(_ bytes: [UInt8], _ name: String) {
        _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(bytes))
    }

    func testAHeaderNamingAColumnTwiceRefusesTheRun() throws {
        write(Array(rows.utf8), "good.csv")
        write(
            Array("locationId,name,latitude,name,createdAt\nloc-3,Three,1.5,Other,2024-03-01T10:15:30Z\n".utf8),
            "twice.csv")
        try pipeline(["good.csv", "twice.csv"])
        let result = try ImporterProcess.run(["run", "p.yaml", "--quiet"], in: directory)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(
            result.stderr,
            "importer: twice.csv:1: 'name': the header names this column twice (fields 2 and 4), and a record holds one value per name; rename one of them, or name every field with csv.columns\n"
        )
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: directory + "/store.db"),
            "nothing is written, not even the first source")

        let validate = try ImporterProcess.run(["validate", "p.yaml", "--quiet"], in: directory)
        XCTAssertEqual(validate.status, 2, validate.stderr)
    }

    /// With a byte order mark UTF-16 is decoded (docs/pipeline.md#encodings); without one, and
    /// without `encoding:`, it is not taken for UTF-8 row after row.
    func testAUTF16FileWithoutAByteOrderMarkIsOneEncodingRejection() throws {
        let text = rows.replacingOccurrences(of: "\n", with: "\r\n")
        let cases: [(name: String, bytes: [UInt8], encoding: String)] = [
            ("le.csv", text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "UTF-16LE"),
            ("be.csv", text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "UTF-16BE"),
        ]
        for (name, bytes, encoding) in cases {
            write(bytes, name)
            try pipeline([name])
            let result = try ImporterProcess.run(["run", "p.yaml", "--quiet"], in: directory)
            XCTAssertEqual(result.status, 1, name + ": " + result.stderr)
            let report = try ImporterProcess.report(in: directory + "/r")
            XCTAssertEqual(report.object("totals").int("read"), 1, name)
            XCTAssertEqual(report.object("totals").int("rejected"), 1, name)
            XCTAssertEqual(report.objects("inputs").first?.int("bytes"), bytes.count, name + ": read to its end")
            let rejects = try ImporterProcess.rejects(in: directory + "/r")
            XCTAssertEqual(rejects.count, 1, name)
            XCTAssertEqual(rejects.first?.string("reason"), "encoding", name)
            XCTAssertEqual(rejects.first?.int("line"), 1, name)
            XCTAssertTrue(
                rejects.first?.string("message")?.contains(
                    "the file is \(encoding) text, not UTF-8; set 'encoding: \(encoding.lowercased())'"
                ) == true, name)
        }
        write([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "le-bom.csv")
        try pipeline(["le-bom.csv"])
        let result = try ImporterProcess.run(["run", "p.yaml", "--quiet"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try ImporterProcess.report(in: directory + "/r").object("totals").int("inserted"), 2)
    }

    func testAnEmptyInputIsAWarningAndTheRunGoesOn() throws {
        write(Array(rows.utf8), "good.csv")
        write([], "empty.csv")
        try pipeline(["empty.csv", "good.csv"])
        let result = try ImporterProcess.run(["run", "p.yaml", "--quiet"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.hasPrefix(
                "importer: warning: empty.csv: the input is empty (0 bytes), so it has no Location records; the run goes on without it\n"
            ),
            result.stderr)
        XCTAssertEqual(try ImporterProcess.report(in: directory + "/r").object("totals").int("inserted"), 2)
    }
}
