import Foundation
import TestSupport
import XCTest

/// `report: { metrics: prometheus }`: metrics.prom beside report.json, in the Prometheus text
/// format, with report.json's figures; a run that stops early keeps the last success's time
/// from the store's history (docs/reports.md#metrics).
final class MetricsFileTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func pipeline(maxErrors: Int) throws -> String {
        let root = ImporterProcess.root.path
        let text = try String(contentsOfFile: root + "/Pipelines/orders.yaml", encoding: .utf8)
            .replacingOccurrences(of: "../SampleData", with: root + "/SampleData")
            .replacingOccurrences(
                of: "report: { directory: \"${OUT_DIR:-../out}/reports/orders\" }",
                with:
                    "report: { directory: \"${OUT_DIR}/reports\", metrics: prometheus }\nerrors: { maxErrors: \(maxErrors) }"
            )
        let path = directory + "/orders-\(maxErrors).yaml"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// `name{labels} value` lines of metrics.prom.
    private func samples() throws -> [String: Double] {
        let text = try String(contentsOfFile: directory + "/reports/metrics.prom", encoding: .utf8)
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            samples[String(parts[0])] = Double(parts[1])
        }
        return samples
    }

    func testAMetricsFileHoldsTheReportsFiguresAndTheLastSuccess() throws {
        let first = try ImporterProcess.run(["run", try pipeline(maxErrors: 100)], environment: ["OUT_DIR": directory])
        XCTAssertEqual(first.status, 1, first.stderr)
        let report = try ImporterProcess.report(in: directory + "/reports")
        var metrics = try samples()
        for entity in report.objects("entities") {
            let name = entity.string("entity")!, counts = entity.object("counts")
            XCTAssertEqual(
                metrics["importer_records_read_total{pipeline=\"orders\",entity=\"\(name)\"}"],
                Double(counts.int("read")))
            for outcome in ["inserted", "rejected", "unchanged"] {
                XCTAssertEqual(
                    metrics["importer_records_total{pipeline=\"orders\",entity=\"\(name)\",outcome=\"\(outcome)\"}"],
                    Double(counts.int(outcome)), "\(name) \(outcome)")
            }
        }
        XCTAssertEqual(metrics["importer_rejections_total{pipeline=\"orders\",entity=\"Line\",reason=\"range\"}"], 2)
        XCTAssertEqual(metrics["importer_run_exit_code{pipeline=\"orders\"}"], 1)
        let finished = try XCTUnwrap(metrics["importer_last_run_timestamp_seconds{pipeline=\"orders\"}"])
        XCTAssertEqual(metrics["importer_last_success_timestamp_seconds{pipeline=\"orders\"}"], finished)
        XCTAssertEqual(metrics["importer_duration_seconds_count{pipeline=\"orders\",stage=\"run\"}"], 1)

        // No rejection allowed: the run aborts at the first, and the last success stays the first run's.
        let second = try ImporterProcess.run(
            ["run", try pipeline(maxErrors: 0), "--read-unchanged"], environment: ["OUT_DIR": directory])
        XCTAssertEqual(second.status, 3, second.stderr)
        metrics = try samples()
        XCTAssertEqual(metrics["importer_run_exit_code{pipeline=\"orders\"}"], 3)
        XCTAssertGreaterThan(
            try XCTUnwrap(metrics["importer_last_run_timestamp_seconds{pipeline=\"orders\"}"]), finished)
        XCTAssertEqual(
            try XCTUnwrap(metrics["importer_last_success_timestamp_seconds{pipeline=\"orders\"}"]), finished,
            accuracy: 0.001)
    }
}
