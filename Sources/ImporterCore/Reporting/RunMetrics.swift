import Foundation
import Metrics

/// A finished run's figures as swift-metrics counters, timers and gauges (docs/reports.md#metrics),
/// sent to whatever backend the process bootstrapped (none: they cost nothing). The CLI's is
/// Prometheus, written to `metrics.prom` with `report: { metrics: prometheus }`.
///
/// Every metric has the `pipeline` dimension (the pipeline's name):
/// - `importer_records_read_total{entity}` and `importer_records_total{entity, outcome}`
///   (`inserted`, `updated`, `unchanged`, `rejected`, `rolled_back`, `not_written`, `unknown`,
///   `deleted`);
/// - `importer_rejections_total{entity, reason}`;
/// - `importer_duration_seconds{stage}`: `run` (the whole run) and `read` (per entity, its
///   inputs' reading), as timers;
/// - `importer_last_run_timestamp_seconds`, `importer_last_success_timestamp_seconds` (the last
///   run that read all its input: `succeeded` or `partial`, from the store's history when this
///   one was not), `importer_run_exit_code`.
package enum RunMetrics {
    /// Sends `report`'s figures. `lastSuccess`: when the last run that read all its input
    /// finished (this one, or an earlier one the store recorded).
    package static func record(_ report: RunReport, lastSuccess: Date?) {
        let pipeline = ("pipeline", report.pipeline)
        for entity in report.entities {
            let name = ("entity", entity.entity), counts = entity.counts
            Counter(label: "importer_records_read_total", dimensions: [pipeline, name]).increment(by: counts.read)
            let outcomes = [
                ("inserted", counts.inserted), ("updated", counts.updated), ("unchanged", counts.unchanged),
                ("rejected", counts.rejected), ("rolled_back", counts.rolledBack), ("not_written", counts.notWritten),
                ("unknown", counts.unknown), ("deleted", counts.deleted),
            ]
            for (outcome, count) in outcomes {
                Counter(label: "importer_records_total", dimensions: [pipeline, name, ("outcome", outcome)])
                    .increment(by: count)
            }
            let reading = report.inputs.filter { $0.entity == entity.entity }.map(\.seconds).reduce(0, +)
            Metrics.Timer(label: "importer_duration_seconds", dimensions: [pipeline, name, ("stage", "read")])
                .recordSeconds(reading)
        }
        var reasons: [String: [String: Int]] = [:]
        for group in report.errors {
            reasons[group.entity, default: [:]][group.reason.rawValue, default: 0] += group.count
        }
        for (entity, counts) in reasons {
            for (reason, count) in counts {
                Counter(
                    label: "importer_rejections_total", dimensions: [pipeline, ("entity", entity), ("reason", reason)]
                ).increment(by: count)
            }
        }
        Metrics.Timer(label: "importer_duration_seconds", dimensions: [pipeline, ("stage", "run")])
            .recordSeconds(report.seconds)
        Gauge(label: "importer_last_run_timestamp_seconds", dimensions: [pipeline])
            .record(report.finishedAt.timeIntervalSince1970)
        if let lastSuccess {
            Gauge(label: "importer_last_success_timestamp_seconds", dimensions: [pipeline])
                .record(lastSuccess.timeIntervalSince1970)
        }
        Gauge(label: "importer_run_exit_code", dimensions: [pipeline]).record(Double(report.exitCode))
    }
}
