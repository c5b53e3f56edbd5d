import Foundation
import TestSupport
import XCTest

/// The README's main job and the bad-dump pipeline, run through the built binary.
final class SamplePipelineTests: XCTestCase {
    var out = ""

    override func setUp() { out = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    func testMainPipelineInsertsEverythingThenFindsEverythingUnchanged() throws {
        let first = try ImporterProcess.run(
            ["run", "Pipelines/locations.yaml", "--quiet"], environment: ["OUT_DIR": out])
        XCTAssertEqual(first.status, 0, first.stderr)
        let reports = out + "/reports/locations"
        var report = try ImporterProcess.report(in: reports)
        var totals = report.object("totals")
        XCTAssertEqual(report.string("status"), "succeeded")
        XCTAssertEqual(totals.int("read"), 4500)
        XCTAssertEqual(totals.int("inserted"), 4500)
        XCTAssertEqual(
            try ImporterProcess.sqlite(out + "/locations.sqlite", "SELECT count(*) FROM \"AWS-Locations\""), "500")
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                out + "/locations.sqlite", "SELECT count(*), min(version), max(version) FROM Checkin"), "4000|1|1")
        XCTAssertTrue(first.stderr.contains("Checkin  | 4000 |     4000 |"), first.stderr)

        let second = try ImporterProcess.run(
            ["run", "Pipelines/locations.yaml", "--quiet"], environment: ["OUT_DIR": out])
        XCTAssertEqual(second.status, 0, second.stderr)
        report = try ImporterProcess.report(in: reports)
        totals = report.object("totals")
        XCTAssertEqual(totals.int("read"), 4500)
        XCTAssertEqual(totals.int("unchanged"), 4500)
        XCTAssertEqual(totals.int("inserted") + totals.int("updated") + totals.int("rejected"), 0)
        XCTAssertEqual(try ImporterProcess.sqlite(out + "/locations.sqlite", "SELECT max(version) FROM Checkin"), "1")
        XCTAssertEqual(try String(contentsOfFile: reports + "/rejects.ndjson", encoding: .utf8), "")
        let junit = try String(contentsOfFile: reports + "/junit.xml", encoding: .utf8)
        XCTAssertTrue(junit.contains("<testsuite name=\"Location\" tests=\"1\" failures=\"0\""), junit)

        let inspect = try ImporterProcess.run(["inspect", "Pipelines/locations.yaml"], environment: ["OUT_DIR": out])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssertTrue(inspect.stdout.contains("model: Locations version 1"), inspect.stdout)
        XCTAssertTrue(inspect.stdout.contains("Checkin: 4000"), inspect.stdout)
        XCTAssertTrue(
            inspect.stdout.contains("succeeded locations-refresh: read 4500, inserted 0, updated 0, unchanged 4500"),
            inspect.stdout)
    }

    func testBadPipelineRejectsEachBadRowAndStoresEachGoodRowExactly() throws {
        let result = try ImporterProcess.run(
            ["run", "Pipelines/locations-bad.yaml", "--quiet"], environment: ["OUT_DIR": out])
        XCTAssertEqual(result.status, 1, result.stderr)
        let reports = out + "/reports/locations-bad"
        let rejects = try ImporterProcess.rejects(in: reports)
        let expected = try Self.badRowTable()
        XCTAssertEqual(rejects.count, expected.count)
        for row in expected {
            let match = rejects.first { reject in
                (reject.string("source") ?? "").hasSuffix("/" + row.file) && reject.int("line") == row.line
            }
            guard let match else {
                XCTFail("no reject for \(row.file):\(row.line)")
                continue
            }
            XCTAssertEqual(match.string("stage"), row.stage, "\(row.file):\(row.line)")
            XCTAssertEqual(
                match.string("reason"), row.reason, "\(row.file):\(row.line): \(match.string("message") ?? "")")
            XCTAssertEqual(match.string("key") ?? "", row.key, "\(row.file):\(row.line)")
            // `offset` points at the record's original bytes in its file.
            let source = try Data(contentsOf: URL(fileURLWithPath: match.string("source")!))
            let raw =
                match.string("rawBase64").flatMap { Data(base64Encoded: $0) } ?? Data((match.string("raw") ?? "").utf8)
            XCTAssertFalse(raw.isEmpty, "\(row.file):\(row.line)")
            let offset = match.int("offset")
            XCTAssertEqual(source[offset..<min(offset + raw.count, source.count)], raw, "\(row.file):\(row.line)")
            XCTAssertFalse((match.string("message") ?? "").isEmpty, "\(row.file):\(row.line)")
        }
        let duplicate = rejects.first { $0.string("reason") == "duplicate" && $0.string("entity") == "Location" }
        XCTAssertTrue(duplicate?.string("message")?.contains("line 31") == true, "\(String(describing: duplicate))")

        let report = try ImporterProcess.report(in: reports)
        XCTAssertEqual(report.string("status"), "partial")
        // Rejections by reason and field, largest first, in report.json and in the summary.
        let groups = report.objects("errors")
        XCTAssertEqual(groups.map { $0.int("count") }.reduce(0, +), report.object("totals").int("rejected"))
        XCTAssertEqual(groups.map { $0.int("count") }, groups.map { $0.int("count") }.sorted(by: >), "largest first")
        let reference = groups.first { $0.string("reason") == "reference" }
        XCTAssertEqual(reference?.string("field"), "locationId")
        XCTAssertEqual(reference?.string("target"), "Location")
        XCTAssertEqual(reference?.int("count"), 2)
        XCTAssertTrue(
            result.stderr.contains("rejected, by reason:\n  malformed  Location                       4\n"),
            result.stderr)
        XCTAssertTrue(result.stderr.contains("\n  reference  Checkin.locationId → Location  2\n"), result.stderr)
        for input in report.objects("inputs") {
            let c = input.object("counts")
            XCTAssertEqual(
                c.int("read"),
                c.int("inserted") + c.int("updated") + c.int("unchanged") + c.int("rejected") + c.int("rolledBack"),
                "\(input)")
        }

        let store = out + "/locations-bad.sqlite"
        let bad = ImporterProcess.root.appendingPathComponent("SampleData/Locations/bad").path
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store,
                """
                SELECT locationId, name, latitude, longitude, createdAt, active, rating, visits, version FROM "AWS-Locations" ORDER BY locationId
                """), try String(contentsOfFile: bad + "/expected-locations.txt", encoding: .utf8).trimmingSuffix("\n"))
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store,
                """
                SELECT checkinId, locationId, checkinTime, comment, rating, version FROM Checkin ORDER BY checkinId
                """), try String(contentsOfFile: bad + "/expected-checkins.txt", encoding: .utf8).trimmingSuffix("\n"))
    }

    /// Checkins alone: their Locations are not in this run's input but in the store.
    func testReferencesAreFoundInTheStore() throws {
        XCTAssertEqual(
            try ImporterProcess.run(["run", "Pipelines/locations.yaml", "--quiet"], environment: ["OUT_DIR": out])
                .status, 0)
        let pipeline = out + "/checkins-only.yaml"
        let sample = ImporterProcess.root.appendingPathComponent("SampleData/Locations").path
        try """
        model: \(sample)/Model/v1.yaml
        sources:
          - { entity: Checkin, path: \(sample)/checkins.ndjson }
        destination: { path: \(out)/locations.sqlite }
        report: { directory: \(out)/reports/checkins-only }
        """.write(toFile: pipeline, atomically: false, encoding: .utf8)
        for command in ["validate", "run"] {
            let result = try ImporterProcess.run([command, pipeline, "--quiet"])
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
            XCTAssertEqual(
                try ImporterProcess.report(in: out + "/reports/checkins-only").object("totals").int("rejected"), 0)
        }
    }

    func testValidateWritesNothing() throws {
        let result = try ImporterProcess.run(
            ["validate", "Pipelines/locations-bad.yaml", "--quiet"], environment: ["OUT_DIR": out])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/locations-bad.sqlite"))
        let rejects = try ImporterProcess.rejects(in: out + "/reports/locations-bad")
        XCTAssertEqual(rejects.count, try Self.badRowTable().count)
        XCTAssertEqual(try ImporterProcess.report(in: out + "/reports/locations-bad")["dryRun"] as? Bool, true)
    }

    struct BadRow {
        let file: String, line: Int, key: String, stage: String, reason: String
    }

    /// The table in SampleData/Locations/bad/README.md.
    static func badRowTable() throws -> [BadRow] {
        let readme = try String(
            contentsOf: ImporterProcess.root.appendingPathComponent("SampleData/Locations/bad/README.md"),
            encoding: .utf8)
        return readme.split(separator: "\n").compactMap { line -> BadRow? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 7, let number = Int(cells[2]) else { return nil }
            return BadRow(
                file: cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), line: number,
                key: cells[3].trimmingCharacters(in: CharacterSet(charactersIn: "`")), stage: cells[4], reason: cells[5]
            )
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
