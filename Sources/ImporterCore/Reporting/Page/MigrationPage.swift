import Foundation

/// `report.html` of `importer migrate` (docs/reports.md#reporthtml): the status, and each
/// version step's items migrated and failed, as text and bars; rejects.ndjson lists the items.
struct MigrationPage {
    let report: MigrationReport

    var html: String {
        let failed = report.steps.map(\.failed).reduce(0, +)
        let good = report.status == .migrated || (report.status == .dryRun && failed == 0)
        var page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        page += "<title>importer migrate \(HTMLText.escaped(report.model)) \(report.from) → \(report.to)</title>"
        page += "<style>\(PageStyle.css)</style></head><body>\n"
        page += "<header><h1>Migration of \(HTMLText.escaped(report.model)) v\(report.from) → v\(report.to)</h1>\n"
        page +=
            "<p><span class=\"status \(good ? "succeeded" : failed > 0 && report.status != .rolledBack ? "partial" : "aborted")\" data-figure=\"status\">\(good ? "✔" : "✖") \(report.status.rawValue)</span></p>\n"
        page +=
            "<p class=\"meta\">store \(HTMLText.escaped(report.store)) · pipeline file \(HTMLText.escaped(report.pipeline)) · \(report.startedAt.formatted(.iso8601)) → \(report.finishedAt.formatted(.iso8601)) · \(HTMLText.duration(report.finishedAt.timeIntervalSince(report.startedAt)))</p></header>\n"
        page +=
            "<section><h2>Steps</h2><table><thead><tr><th>step</th><th class=\"n\">items</th><th class=\"n\">failed</th>"
        page += "<th></th></tr></thead><tbody>\n"
        let largest = Double(max(1, report.steps.map(\.failed).max() ?? 1))
        for step in report.steps {
            page +=
                "<tr><td>v\(step.from) → v\(step.to)</td><td class=\"n\" data-figure=\"step.\(step.to).items\">\(HTMLText.figure(step.items))</td><td class=\"n\" data-figure=\"step.\(step.to).failed\">\(HTMLText.figure(step.failed))</td><td class=\"barcell\">\(step.failed > 0 ? PageCharts.bar(Double(step.failed) / largest) : "")</td></tr>\n"
        }
        page += "</tbody></table>"
        if failed > 0 {
            page +=
                "<p class=\"note\">rejects.ndjson beside this page lists each item that failed, as stored before the migration, with why.</p>"
        }
        return page + "</section></body></html>\n"
    }
}
