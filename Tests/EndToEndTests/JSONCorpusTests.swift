import Foundation
import TestSupport
import XCTest

/// The strict-JSON corpus (Tests/Corpus/json, docs/pipeline.md#sources) through `importer run`: every valid
/// object is stored exactly (strings decoded, numbers as their exact text), read as NDJSON and as
/// a JSON array alike; every invalid line is rejected on its own line, and nothing crashes.
final class JSONCorpusTests: XCTestCase {
    var directory = ""
    let corpus = ImporterProcess.root.appendingPathComponent("Tests/Corpus/json").path

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    static let model = """
        model: Corpus
        version: 1
        entities:
          Case:
            hashKey: id
            versionAttribute: version
            attributes:
              id: { type: string }
              s: { type: string }
              n: { type: string }
              b: { type: boolean }
              version: { type: int64 }
        """

    private func run(_ input: String, name: String) throws -> [String: Any] {
        try Self.model.write(toFile: directory + "/model.yaml", atomically: false, encoding: .utf8)
        try """
        model: model.yaml
        sources:
          - { entity: Case, path: \(input), map: { drop: [x] } }
        destination: { path: \(name).db }
        errors: { maxErrors: 1000, maxErrorRatio: 1 }
        report: { directory: reports-\(name) }
        """.write(toFile: directory + "/\(name).yaml", atomically: false, encoding: .utf8)
        let result = try ImporterProcess.run(["run", name + ".yaml", "--quiet"], in: directory)
        XCTAssertTrue([0, 1].contains(result.status), "\(name): exit \(result.status) \(result.stderr)")
        return try ImporterProcess.report(in: directory + "/reports-\(name)")
    }

    func testValidObjectsAreStoredExactlyAsNDJSONAndAsAnArray() throws {
        let lines = try Data(contentsOf: URL(fileURLWithPath: corpus + "/valid.ndjson")).split(separator: 10)
        var array = Data("[".utf8)
        for (index, line) in lines.enumerated() { array += (index == 0 ? Data() : Data(",\n".utf8)) + line }
        array += Data("]".utf8)
        FileManager.default.createFile(atPath: directory + "/valid.json", contents: array)

        for (input, name) in [(corpus + "/valid.ndjson", "ndjson"), (directory + "/valid.json", "array")] {
            let report = try run(input, name: name)
            let rejects = try ImporterProcess.rejects(in: directory + "/reports-\(name)")
            XCTAssertEqual(report.object("totals").int("inserted"), lines.count, "\(name): \(rejects)")
            // Python's json module, numbers kept as text, gives what each line holds.
            let mismatches = try CommandLineTools.run(
                "/usr/bin/env",
                [
                    "python3", "-c",
                    """
                    import json, sqlite3, sys
                    stored = {r[0]: r[1:] for r in sqlite3.connect(sys.argv[2]).execute("SELECT id, s, n, b FROM \\"Case\\"")}
                    for line in open(sys.argv[1], "rb"):
                        o = json.loads(line, parse_int=str, parse_float=str, parse_constant=str)
                        b = o.get("b")
                        want = (o.get("s"), o.get("n"), None if b is None else int(b))
                        if stored.get(o["id"]) != want: print(o["id"], stored.get(o["id"]), want)
                    """, corpus + "/valid.ndjson", directory + "/\(name).db",
                ])
            XCTAssertEqual(mismatches, "", name)
        }
    }

    func testEveryInvalidLineIsRejectedOnItsOwnLine() throws {
        let lines = try Data(contentsOf: URL(fileURLWithPath: corpus + "/invalid.ndjson")).split(
            separator: 10, omittingEmptySubsequences: false
        ).dropLast()
        let report = try run(corpus + "/invalid.ndjson", name: "invalid")
        let totals = report.object("totals")
        XCTAssertEqual(totals.int("read"), lines.count)
        XCTAssertEqual(totals.int("inserted"), 0)
        XCTAssertEqual(totals.int("rejected"), lines.count)
        let rejects = try ImporterProcess.rejects(in: directory + "/reports-invalid")
        XCTAssertEqual(rejects.compactMap { $0["line"] as? Int }, Array(1...lines.count))
        for reject in rejects {
            XCTAssertEqual(reject["stage"] as? String, "read", "\(reject)")
            XCTAssertTrue(["malformed", "encoding"].contains(reject["reason"] as? String), "\(reject)")
        }
    }
}
