import Foundation
import TestSupport
import XCTest

/// A backup restores the store it came from (docs/archives.md#restore): references kept
/// dangling (`keep`, here a composite one), nullified or rejected when the store was built are
/// not decided again, so every format restores tables equal row for row.
final class RestoreReferencesTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    static let model = """
        model: Weather
        version: 1
        entities:
          Station:
            hashKey: stationId
            versionAttribute: version
            attributes:
              stationId: { type: string }
              name:      { type: string }
              version:   { type: int64 }
          Reading:
            hashKey: stationId
            rangeKey: hour
            versionAttribute: version
            attributes:
              stationId:   { type: string }
              hour:        { type: date }
              temperature: { type: double }
              version:     { type: int64 }
            relationships:
              station: { destination: Station, key: stationId }
          Alert:
            hashKey: alertId
            versionAttribute: version
            attributes:
              alertId:   { type: string }
              stationId: { type: string }
              hour:      { type: date }
              siteId:    { type: string }
              note:      { type: string }
              version:   { type: int64 }
            relationships:
              reading: { destination: Reading, key: [stationId, hour] }
              site:    { destination: Station, key: siteId }
        """

    static let readings = 2_000, alerts = 3_000

    func writeInputs() throws {
        try Self.model.write(toFile: directory + "/model.yaml", atomically: false, encoding: .utf8)
        var stations = "stationId,name\n"
        for index in 0..<50 { stations += "ST\(index),Station \(index)\n" }
        var readings = "stationId,hour,temperature\n"
        for index in 0..<Self.readings {
            // One in twenty names a station that does not exist: rejected (the default policy).
            let station = index % 20 == 0 ? "XX\(index)" : "ST\(index % 50)"
            readings +=
                "\(station),2024-06-01T\(String(format: "%02d", index / 100 % 24)):00:00Z,\(Double(index % 300) / 10)\n"
        }
        var alerts = "alertId,stationId,hour,siteId,note\n"
        for index in 0..<Self.alerts {
            // Half name a reading that was never loaded (kept dangling); one in five a site that
            // does not exist (nullified).
            let hour =
                index % 2 == 0
                ? "2024-07-01T03:00:00Z" : "2024-06-01T\(String(format: "%02d", index / 100 % 24)):00:00Z"
            let site = index % 5 == 0 ? "NOPE\(index)" : "ST\(index % 50)"
            alerts += "A\(index),ST\(index % 50),\(hour),\(site),\"note \(index), with a comma\"\n"
        }
        try stations.write(toFile: directory + "/stations.csv", atomically: false, encoding: .utf8)
        try readings.write(toFile: directory + "/readings.csv", atomically: false, encoding: .utf8)
        try alerts.write(toFile: directory + "/alerts.csv", atomically: false, encoding: .utf8)
    }

    func pipeline(_ name: String, store: String) throws -> String {
        let file = directory + "/\(name).yaml"
        try """
        model: model.yaml
        sources:
          - { entity: Station, path: stations.csv }
          - { entity: Reading, path: readings.csv }
          - entity: Alert
            path: alerts.csv
            references: { reading: keep, site: nullify }
        destination: { path: \(store) }
        errors: { maxErrors: 100000, maxErrorRatio: 1.0 }
        report: { directory: reports-\(name) }
        """.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    func dump(_ store: String) throws -> String {
        try ImporterProcess.sqlite(store, ".dump Station Reading Alert")
    }

    func testEveryFormatRestoresTheTablesItExportedWithTheirReferences() throws {
        try writeInputs()
        let original = directory + "/original.sqlite"
        let built = try ImporterProcess.run(["run", try pipeline("build", store: original), "--quiet"])
        XCTAssertEqual(built.status, 1, built.stderr)  // the rejected readings
        let dangling =
            Int(
                try ImporterProcess.sqlite(
                    original,
                    "SELECT count(*) FROM Alert a WHERE NOT EXISTS (SELECT 1 FROM Reading r WHERE r.stationId = a.stationId AND r.hour = a.hour)"
                )) ?? 0
        XCTAssertGreaterThanOrEqual(dangling, 1_000)
        XCTAssertEqual(
            try ImporterProcess.sqlite(original, "SELECT count(*) FROM Alert WHERE siteId IS NULL"),
            String(Self.alerts / 5))
        let expected = try dump(original)

        for format in ["ndjson", "csv", "dynamodb-json"] {
            let archive = directory + "/backup-\(format).tar.gz"
            let export = try ImporterProcess.run([
                "export", try pipeline("build", store: original), "--out", archive, "--format", format,
            ])
            XCTAssertEqual(export.status, 0, export.stderr)
            let restored = directory + "/restored-\(format).sqlite"
            let restore = try ImporterProcess.run([
                "restore", archive, try pipeline("restore-\(format)", store: restored), "--quiet",
            ])
            XCTAssertEqual(restore.status, 0, "\(format): \(restore.stderr)")
            XCTAssertEqual(try dump(restored), expected, "\(format): the restored tables differ from the exported ones")

            let report = try ImporterProcess.report(in: directory + "/reports-restore-\(format)")
            XCTAssertEqual(report.string("status"), "succeeded")
            let alert = try XCTUnwrap(report.objects("entities").first { $0.string("entity") == "Alert" })
            XCTAssertEqual(alert.object("referencePolicies") as? [String: String], ["reading": "keep", "site": "keep"])
            let reading = alert.object("references").object("reading")
            XCTAssertEqual(reading.string("action"), "keep")
            XCTAssertEqual(reading.int("missing"), dangling, "\(format): the kept references are counted as kept")
        }
    }
}
