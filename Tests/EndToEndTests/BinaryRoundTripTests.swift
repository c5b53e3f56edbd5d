import Foundation
import TestSupport
import XCTest

/// uuid, uri and binary (docs/model.md) into SQLite, and through every export format and back.
final class BinaryRoundTripTests: XCTestCase {
    var directory = ""

    override func setUp() {
        directory = ImporterProcess.temporaryDirectory()
        try! TestModels.files.write(toFile: directory + "/model.yaml", atomically: false, encoding: .utf8)
        try! """
        {"id": "0E8A3C5E-1F2B-4C3D-8E9F-A0B1C2D3E4F5", "source": "https://example.com/a?b=c", "thumbnail": "AAEC+v8="}
        {"id": "11111111222233334444555555555555", "source": "urn:isbn:0451450523", "thumbnail": ""}
        {"id": "2222", "source": "https://example.com/", "thumbnail": "AA=="}
        {"id": "33333333-2222-3333-4444-555555555555", "source": "example.com/no-scheme", "thumbnail": "AA=="}
        {"id": "44444444-2222-3333-4444-555555555555", "source": "https://example.com/", "thumbnail": "not base64"}
        """.write(toFile: directory + "/documents.ndjson", atomically: false, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func pipeline(_ name: String, store: String) throws -> String {
        let file = directory + "/\(name).yaml"
        try """
        model: model.yaml
        sources:
          - { entity: Document, path: documents.ndjson }
        destination: { path: \(store) }
        report: { directory: reports-\(name) }
        """.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    private let rows =
        "SELECT id || ' ' || source || ' ' || typeof(thumbnail) || ' ' || hex(thumbnail) FROM Document ORDER BY id"

    func testValuesAreCheckedStoredAsTheirColumnsAndSurviveEveryExportFormat() throws {
        let run = try ImporterProcess.run(["run", try pipeline("run", store: "source.sqlite"), "--quiet"])
        XCTAssertEqual(run.status, 1, run.stderr)
        let stored = try ImporterProcess.sqlite(directory + "/source.sqlite", rows)
        XCTAssertEqual(
            stored,
            """
            0e8a3c5e-1f2b-4c3d-8e9f-a0b1c2d3e4f5 https://example.com/a?b=c blob 000102FAFF
            11111111-2222-3333-4444-555555555555 urn:isbn:0451450523 blob 
            """)
        let rejects = try ImporterProcess.rejects(in: directory + "/reports-run")
        XCTAssertEqual(
            rejects.map { "\($0.int("line")) \($0.string("field") ?? "") \($0.string("reason") ?? "")" },
            ["3 id type", "4 source type", "5 thumbnail type"])

        for format in ["ndjson", "csv", "dynamodb-json"] {
            let archive = directory + "/backup-\(format).tar.zst"
            let export = try ImporterProcess.run([
                "export", try pipeline("export", store: "source.sqlite"), "--out", archive, "--format", format,
            ])
            XCTAssertEqual(export.status, 0, export.stderr)
            let restored = "restored-\(format).sqlite"
            let restore = try ImporterProcess.run([
                "restore", archive, try pipeline("restore", store: restored), "--quiet",
            ])
            XCTAssertEqual(restore.status, 0, "\(format): \(restore.stderr)")
            XCTAssertEqual(try ImporterProcess.sqlite(directory + "/" + restored, rows), stored, format)
        }
    }
}
