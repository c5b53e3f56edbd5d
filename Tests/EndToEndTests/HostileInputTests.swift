import Foundation
import TestSupport
import XCTest

/// Defects found by fuzzing the release binary, each kept as a regression test: the
/// input that crashed or hung it now gives a clear error or a rejection, and reading goes on.
final class HostileInputTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func write(_ text: String, _ name: String) throws {
        try text.write(toFile: directory + "/" + name, atomically: false, encoding: .utf8)
    }

    private func pipeline(_ name: String, source: String, store: String = "store.db", extra: String = "") throws {
        let model = ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        try write(
            """
            model: \(model)
            sources:
              - { entity: Location, path: \(source)\(extra) }
            destination: { path: \(store) }
            errors: { maxErrors: 100, maxErrorRatio: 1 }
            report: { directory: r }
            """, name)
    }

    /// SIGILL: Foundation's NSString path methods trap on one-character paths on Linux.
    func testOneCharacterPathsForThePipelineTheStoreAndTheReportsWork() throws {
        try write("locationId,name,latitude,longitude,createdAt\nloc-1,One,1.5,2.5,2024-03-01T10:15:30Z\n", "l.csv")
        try pipeline("p", source: "l.csv", store: "x")
        let result = try ImporterProcess.run(["run", "p", "--quiet"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try ImporterProcess.sqlite(directory + "/x", "SELECT name FROM \"AWS-Locations\""), "One")
        XCTAssertEqual(try ImporterProcess.report(in: directory + "/r").string("pipeline"), "p")
    }

    /// SIGSEGV: a `.gz` libarchive could not open freed its handle twice. An empty file, a cut
    /// header and plain text named .gz are errors that name the file; gzip of nothing is an empty input.
    func testGzipInputsThatAreEmptyCutOrNotGzipAreErrorsNamingTheFile() throws {
        let record =
            #"{"locationId":"loc-1","name":"One","latitude":1.5,"longitude":2.5,"createdAt":"2024-03-01T10:15:30Z"}"#
        let gzip = try gzipped(Array((record + "\n").utf8))
        let cases: [(name: String, bytes: [UInt8], message: String?)] = [
            ("empty.ndjson.gz", [], "is not gzip-compressed"),
            ("cut.ndjson.gz", Array(gzip.prefix(5)), "is not gzip-compressed"),
            ("plain.ndjson.gz", Array((record + "\n").utf8), "is not gzip-compressed"),
            ("truncated.ndjson.gz", Array(gzip.dropLast(12)), "cannot open as gzip: truncated gzip input"),
            ("nothing.ndjson.gz", try gzipped([]), nil),
        ]
        for (name, bytes, message) in cases {
            FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(bytes))
            try pipeline(name + ".yaml", source: name)
            let result = try ImporterProcess.run(["run", name + ".yaml", "--quiet"], in: directory)
            if let message {
                XCTAssertEqual(result.status, 3, name + ": " + result.stderr)
                XCTAssertTrue(result.stderr.contains("\(name): \(message)"), name + ": " + result.stderr)
            } else {
                XCTAssertEqual(result.status, 0, name + ": " + result.stderr)
                XCTAssertEqual(try ImporterProcess.report(in: directory + "/r").object("totals").int("read"), 0)
            }
        }
    }

    /// Endless loop: `[}]` returned an empty element without moving on. A break in the array's
    /// structure now ends the reading with one rejection naming its line and column.
    func testABrokenJSONArrayEndsWithOneRejectionAtItsLineAndColumn() throws {
        let element =
            #"{"locationId":"loc-1","name":"One","latitude":1.5,"longitude":2.5,"createdAt":"2024-03-01T10:15:30Z"}"#
        let cases: [(text: String, stored: Int, line: Int, message: String)] = [
            ("[}]", 0, 1, "column 2: expected an element, found '}'"),
            ("[1}", 0, 1, "column 3: expected ',' or ']' after an element, found '}'"),
            ("[\n\(element)\n  \(element)]", 1, 3, "column 3: expected ',' or ']' after an element, found '{'"),
            ("[\(element),\n]", 1, 2, "column 1: a trailing comma before ']'"),
            ("[\(element)] []", 1, 1, "column 105: unexpected text after the array's closing ']'"),
        ]
        for (index, (text, stored, line, message)) in cases.enumerated() {
            try write(text, "a\(index).json")
            try pipeline("a\(index).yaml", source: "a\(index).json", store: "a\(index).db")
            let result = try ImporterProcess.run(["run", "a\(index).yaml", "--quiet"], in: directory)
            XCTAssertEqual(result.status, 1, text + ": " + result.stderr)
            let totals = try ImporterProcess.report(in: directory + "/r").object("totals")
            XCTAssertEqual(totals.int("inserted"), stored, text)
            XCTAssertEqual(totals.int("read"), totals.int("inserted") + totals.int("rejected"), text)
            let rejects = try ImporterProcess.rejects(in: directory + "/r")
            XCTAssertEqual(rejects.last?["line"] as? Int, line, text)
            XCTAssertTrue((rejects.last?["message"] as? String)?.hasPrefix(message) == true, "\(text): \(rejects)")
        }
    }

    /// 13.8 GB of memory, and a crash in the JSON readers: one record of 256 MiB, inflated from a
    /// small `.gz`. A record over `maxRecordBytes` is a rejection read past in bounded memory.
    func testARecordOverMaxRecordBytesIsRejectedInBoundedMemory() throws {
        let record =
            #"{"locationId":"loc-1","name":"One","latitude":1.5,"longitude":2.5,"createdAt":"2024-03-01T10:15:30Z"}"#
        for format in ["ndjson", "csv", "json"] {
            let file = "bomb.\(format).gz"
            let (head, tail) =
                switch format {
                case "ndjson": (#"{"locationId":"loc-0","name":""#, "\"}\n" + record + "\n")
                case "csv":
                    (
                        "locationId,name,latitude,longitude,createdAt\nloc-0,",
                        "\nloc-1,One,1.5,2.5,2024-03-01T10:15:30Z\n"
                    )
                default: (#"[{"locationId":"loc-0","name":""#, "\"},\n" + record + "]")
                }
            try python(
                """
                import gzip
                with gzip.open(\(quoted(directory + "/" + file)), "wb", compresslevel=1) as out:
                    out.write(\(quoted(head)).encode())
                    block = b"a" * (1 << 20)
                    for _ in range(256): out.write(block)
                    out.write(\(quoted(tail)).encode())
                """)
            try pipeline(file + ".yaml", source: file, store: format + ".db", extra: ", maxRecordBytes: 1MiB")
            let peak = try python(
                """
                import resource, subprocess, sys
                run = subprocess.run([\(quoted(ImporterProcess.binary)), "run", \(quoted(file + ".yaml")), "--quiet"], cwd=\(quoted(directory)))
                print(run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
                """
            ).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            XCTAssertEqual(peak.first, 1, "\(format): exit status")
            XCTAssertLessThan(peak.last ?? .max, 128, "\(format): peak memory in MB while skipping a 256 MiB record")
            let totals = try ImporterProcess.report(in: directory + "/r").object("totals")
            XCTAssertEqual(totals.int("inserted"), 1, format)
            XCTAssertEqual(totals.int("rejected"), 1, format)
            let reject = try XCTUnwrap(ImporterProcess.rejects(in: directory + "/r").first)
            XCTAssertEqual(reject["reason"] as? String, "size", format)
            XCTAssertEqual(reject["line"] as? Int, format == "csv" ? 2 : 1, format)
            XCTAssertEqual((reject["raw"] as? String)?.utf8.count, 1024, format)
            XCTAssertTrue((reject["message"] as? String)?.contains("maxRecordBytes (1048576)") == true, "\(reject)")
        }
    }

    // MARK: Helpers

    private func gzipped(_ bytes: [UInt8]) throws -> [UInt8] {
        let input = directory + "/gzip-input"
        FileManager.default.createFile(atPath: input, contents: Data(bytes))
        try CommandLineTools.run("/bin/gzip", ["-f", input])
        return Array(try Data(contentsOf: URL(fileURLWithPath: input + ".gz")))
    }

    @discardableResult
    private func python(_ script: String) throws -> String {
        try CommandLineTools.run("/usr/bin/env", ["python3", "-c", script])
    }

    private func quoted(_ text: String) -> String {
        "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
}
