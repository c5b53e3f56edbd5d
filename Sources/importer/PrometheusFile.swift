import Foundation
import ImporterCore
import Metrics
import Prometheus

/// `metrics.prom` (docs/reports.md#metrics): the run's swift-metrics, collected by a Prometheus
/// registry this process bootstraps, written in the Prometheus text format beside report.json,
/// whole or not at all, for node-exporter's textfile collector.
struct PrometheusFile {
    private let registry = PrometheusCollectorRegistry()

    /// Makes the registry the process's metrics backend (once per process, before the run).
    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Batch runs take seconds to hours, not the request latencies of the default buckets.
        factory.durationHistogramBuckets["importer_duration_seconds"] = [1, 5, 15, 60, 300, 900, 3600, 14_400].map {
            Duration.seconds($0)
        }
        MetricsSystem.bootstrap(factory)
    }

    /// Writes what was recorded into `directory`/metrics.prom.
    func write(to directory: String) throws {
        try OutputFile.write(Data(registry.emitToBuffer()), to: FilePaths.join(directory, "metrics.prom"))
    }
}
