import Foundation

/// `report.html` (docs/reports.md#reporthtml): one self-contained page per run — inline CSS
/// and SVG, no script, no font or image from the network — that says what the run did and
/// how it compares with the store's last runs. Every figure is text as well as a mark; the
/// elements holding figures carry `data-figure` names, so a test can compare them with
/// report.json's.
package struct ReportPage {
    /// The run's report; nil for a store's history alone (`importer report html STORE`).
    package let report: RunReport?
    /// The store's latest runs, newest first (as `RunHistory.recentRuns` gives them); nil when
    /// the store keeps none.
    package let history: [RunSummary]?
    /// What the page is of, when there is no report (the store's path).
    package let subject: String
    /// The raw text of the examples shown, from rejects.ndjson.
    let rejected: RejectedText

    package static let historyRuns = 30
    /// Examples shown per group of rejections.
    static let examplesShown = 3

    /// `rejectsFile`: the run's rejects.ndjson, whose head gives the examples' raw text.
    package init(report: RunReport?, history: [RunSummary]?, subject: String = "", rejectsFile: String? = nil) {
        self.report = report
        self.history = history
        self.subject = subject
        let wanted = Set(
            (report?.errors ?? []).flatMap { $0.examples.prefix(Self.examplesShown).map { "\($0.source):\($0.line)" } })
        rejected = rejectsFile.map { RejectedText(path: $0, wanted: wanted) } ?? RejectedText()
    }

    package var html: String {
        var page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        page += "<title>\(HTMLText.escaped(title))</title><style>\(PageStyle.css)</style></head><body>\n"
        if let report {
            page += header(report)
            page += entities(report)
            page += rejections(report)
            page += references(report)
            page += timeline(report)
            page += inputs(report)
            page += deletes(report)
        } else {
            page += "<h1>\(HTMLText.escaped(title))</h1>\n"
        }
        page += historySection()
        return page + "</body></html>\n"
    }

    private var title: String {
        guard let report else { return "importer: the runs of \(subject)" }
        return "importer \(report.dryRun ? "dry run" : "run") of \(report.pipeline): \(report.status.rawValue)"
    }

    // MARK: Sections

    private func header(_ report: RunReport) -> String {
        let symbol =
            ["succeeded": "✔", "partial": "◐", "aborted": "✖", "interrupted": "■"][report.status.rawValue] ?? ""
        var html = "<header><h1>\(HTMLText.escaped(report.pipeline))</h1>\n"
        html +=
            "<p><span class=\"status \(report.status.rawValue)\" id=\"status\" data-figure=\"status\">\(symbol) \(report.status.rawValue)</span> "
        html += "exit code <strong data-figure=\"exitCode\">\(report.exitCode)</strong>"
        if report.dryRun { html += " · dry run (nothing written)" }
        html += "</p>\n"
        var reasons: [String] = []
        if let abort = report.abortReason { reasons.append(abort) }
        if let limit = report.errorLimit, report.abortReason == nil { reasons.append(limit) }
        if report.status == .partial && reasons.isEmpty {
            reasons.append("\(HTMLText.figure(report.totals.rejected)) record(s) rejected: see Rejections below")
        }
        if let since = report.unchangedSince {
            reasons.append("the inputs are unchanged since run \(since): nothing was read or written")
        }
        for reason in reasons { html += "<p class=\"reason\" data-figure=\"reason\">\(HTMLText.escaped(reason))</p>\n" }
        html +=
            "<p class=\"meta\">run <code>\(HTMLText.escaped(report.runId))</code> · \(report.startedAt.formatted(.iso8601)) → \(report.finishedAt.formatted(.iso8601)) · <span data-figure=\"seconds\">\(HTMLText.duration(report.seconds))</span></p>\n"
        html +=
            "<p class=\"meta\">model \(HTMLText.escaped(report.model.name)) v\(report.model.version) · \(HTMLText.escaped(report.destination.type))\(report.destination.path.map { " " + HTMLText.escaped($0) } ?? "") · pipeline file \(HTMLText.escaped(report.pipelineFile))</p>\n"
        if let merged = report.mergedRuns {
            html += "<p class=\"meta\">the merged report of \(merged.count) shards</p>\n"
        }
        return html + "</header>\n"
    }

    private func entities(_ report: RunReport) -> String {
        let columns: [(String, KeyPath<Counts, Int>)] = [
            ("read", \.read), ("inserted", \.inserted), ("updated", \.updated), ("unchanged", \.unchanged),
            ("rejected", \.rejected), ("deleted", \.deleted), ("conflicts", \.conflicts), ("retries", \.retries),
        ]
        var html = "<section id=\"entities\"><h2>Records per entity</h2><table><thead><tr><th>entity</th>"
        html += columns.map { "<th class=\"n\">\($0.0)</th>" }.joined()
        html += "<th class=\"n\">seconds</th><th class=\"n\">rows/s</th><th>write path</th></tr></thead><tbody>\n"
        /// A row's count cells, each named `ROW.COLUMN` for the tests' `data-figure` reads.
        func cells(_ counts: Counts, row: String) -> String {
            columns.map { column, path in
                "<td class=\"n\" data-figure=\"\(row).\(column)\">\(HTMLText.figure(counts[keyPath: path]))</td>"
            }.joined()
        }
        for entity in report.entities {
            let name = HTMLText.escaped(entity.entity)
            html += "<tr><td>\(name)</td>" + cells(entity.counts, row: name)
            html += String(format: "<td class=\"n\">%.2f</td>", entity.seconds)
            html += "<td class=\"n\">\(HTMLText.figure(Int(entity.rowsPerSecond.rounded())))</td>"
            html += "<td>\(entity.writePath?.rawValue ?? "—")</td></tr>\n"
        }
        html += "<tr class=\"total\"><td>total</td>" + cells(report.totals, row: "total")
        html += String(format: "<td class=\"n\">%.2f</td><td></td><td></td></tr>\n", report.seconds)
        html += "</tbody></table>"
        let unsettled = [
            ("rolled back", report.totals.rolledBack), ("not written", report.totals.notWritten),
            ("unknown (DynamoDB answer lost)", report.totals.unknown),
        ].filter { $0.1 > 0 }
        if !unsettled.isEmpty {
            html +=
                "<p class=\"reason\">Not in the store as meant: \(unsettled.map { "\(HTMLText.figure($0.1)) \($0.0)" }.joined(separator: ", ")) (docs/reports.md).</p>"
        }
        if let wcu = report.totals.consumedWCU {
            html += String(
                format: "<p class=\"note\">DynamoDB capacity consumed: %.1f WCU, %.1f RCU.</p>", wcu,
                report.totals.consumedRCU ?? 0)
        }
        return html + "</section>\n"
    }

    private func rejections(_ report: RunReport) -> String {
        var html = "<section id=\"rejections\"><h2>Rejections</h2>"
        guard !report.errors.isEmpty else { return html + "<p>No record was rejected.</p></section>\n" }
        var byReason: [(reason: String, count: Int)] = []
        for group in report.errors {
            if let index = byReason.firstIndex(where: { $0.reason == group.reason.rawValue }) {
                byReason[index].count += group.count
            } else {
                byReason.append((group.reason.rawValue, group.count))
            }
        }
        byReason.sort { $0.count > $1.count }
        let largest = Double(byReason.first?.count ?? 1)
        html += "<h3>By reason</h3><table><tbody>\n"
        for (reason, count) in byReason {
            html +=
                "<tr><td>\(HTMLText.escaped(reason))</td><td class=\"barcell\">\(PageCharts.bar(Double(count) / largest))</td><td class=\"n\" data-figure=\"reason.\(HTMLText.escaped(reason))\">\(HTMLText.figure(count))</td></tr>\n"
        }
        html += "</tbody></table><h3>By entity and field</h3><table><thead><tr><th>entity</th><th>field</th>"
        html += "<th>stage</th><th>reason</th><th></th><th class=\"n\">records</th></tr></thead><tbody>\n"
        let largestGroup = Double(report.errors.map(\.count).max() ?? 1)
        for group in report.errors {
            let field = group.field.map(HTMLText.escaped) ?? "—"
            html +=
                "<tr><td>\(HTMLText.escaped(group.entity))</td><td>\(field)\(group.target.map { " → " + HTMLText.escaped($0) } ?? "")</td><td>\(group.stage.rawValue)</td><td>\(group.reason.rawValue)</td><td class=\"barcell\">\(PageCharts.bar(Double(group.count) / largestGroup))</td><td class=\"n\" data-figure=\"group.\(HTMLText.escaped(group.entity)).\(field).\(group.reason.rawValue)\">\(HTMLText.figure(group.count))</td></tr>\n"
        }
        html += "</tbody></table><h3>First examples</h3>\n"
        for group in report.errors {
            html +=
                "<p><strong>\(HTMLText.escaped(group.entity)) · \(group.reason.rawValue)\(group.field.map { " · " + HTMLText.escaped($0) } ?? "")</strong> (\(HTMLText.figure(group.count)))</p><table><tbody>\n"
            for example in group.examples.prefix(Self.examplesShown) {
                let raw = rejected.text(source: example.source, line: example.line).map {
                    "<span class=\"raw\">\(HTMLText.escaped($0))</span>"
                }
                html +=
                    "<tr><td><code>\(HTMLText.escaped(example.source)):\(example.line)</code></td><td>\(HTMLText.escaped(example.message))\(raw ?? "")</td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        html += "<p class=\"note\">Every rejected record, with its raw text, is in rejects.ndjson beside this page.</p>"
        return html + "</section>\n"
    }

    private func references(_ report: RunReport) -> String {
        let rows = report.entities.flatMap { entity in
            (entity.references ?? [:]).sorted { $0.key < $1.key }.map { (entity.entity, $0.key, $0.value) }
        }
        guard !rows.isEmpty else { return "" }
        var html = "<section id=\"references\"><h2>Missing references stored anyway</h2><table><thead><tr>"
        html += "<th>entity</th><th>relationship</th><th>target</th><th>action</th><th class=\"n\">missing</th>"
        html += "<th>first example</th></tr></thead><tbody>\n"
        for (entity, relationship, missing) in rows {
            let example = missing.examples.first.map {
                "<code>\(HTMLText.escaped($0.source)):\($0.line)</code> \(HTMLText.escaped($0.message))"
            }
            html +=
                "<tr><td>\(HTMLText.escaped(entity))</td><td>\(HTMLText.escaped(relationship))</td><td>\(HTMLText.escaped(missing.target))</td><td>\(HTMLText.escaped(missing.action))</td><td class=\"n\" data-figure=\"references.\(HTMLText.escaped(entity)).\(HTMLText.escaped(relationship))\">\(HTMLText.figure(missing.missing))</td><td>\(example ?? "")</td></tr>\n"
        }
        return html + "</tbody></table></section>\n"
    }

    private func timeline(_ report: RunReport) -> String {
        guard let timeline = report.timeline, !timeline.read.isEmpty else { return "" }
        let interval = Double(timeline.intervalSeconds)
        let series: [(String, [Int], String, String)] = [
            ("read", timeline.read, "#1d4ed8", ""), ("written", timeline.written, "#15803d", "8 4"),
            ("rejected", timeline.rejected, "#c2410c", "2 3"),
        ]
        var html = "<section id=\"timeline\"><h2>Throughput over the run</h2>\n"
        html += PageCharts.timeline(
            series.map {
                PageCharts.Series(name: $0.0, values: $0.1.map { Double($0) / interval }, colour: $0.2, dashes: $0.3)
            },
            intervalSeconds: timeline.intervalSeconds,
            title: "records per second, per stage, every \(timeline.intervalSeconds) s")
        html += "<p class=\"legend\">"
        for (name, values, colour, dashes) in series {
            let peak = Int((Double(values.max() ?? 0) / interval).rounded())
            html +=
                "<span><svg width=\"22\" height=\"6\" style=\"display:inline\" aria-hidden=\"true\"><line x1=\"0\" y1=\"3\" x2=\"22\" y2=\"3\" stroke=\"\(colour)\" stroke-width=\"2\" stroke-dasharray=\"\(dashes)\"/></svg> \(name): \(HTMLText.figure(values.reduce(0, +))) records, peak \(HTMLText.figure(peak))/s</span>"
        }
        html += "</p>"
        let retries = timeline.retries.reduce(0, +)
        if retries > 0, let worst = timeline.retries.indices.max(by: { timeline.retries[$0] < timeline.retries[$1] }) {
            html +=
                "<p class=\"reason\" data-figure=\"retries\">The store was retried \(HTMLText.figure(retries)) time(s) (throttling, timeouts); most, \(HTMLText.figure(timeline.retries[worst])), in the interval from \(worst * timeline.intervalSeconds) s.</p>"
        }
        // Whole intervals, before the last, in which no stage moved: a stall or throttling.
        let idle = zip(timeline.read, timeline.written).dropLast().filter { $0 == 0 && $1 == 0 }.count
        if idle > 0 {
            html +=
                "<p class=\"reason\" data-figure=\"idleSeconds\">No record was read or written for \(idle * timeline.intervalSeconds) s of the run (a stall, throttling, or a long build).</p>"
        }
        return html + "</section>\n"
    }

    private func inputs(_ report: RunReport) -> String {
        guard !report.inputs.isEmpty else { return "" }
        var html = "<section id=\"inputs\"><h2>Inputs</h2><table><thead><tr><th>source</th><th>entity</th>"
        html += "<th>format</th><th class=\"n\">bytes</th><th class=\"n\">records</th><th class=\"n\">rejected</th>"
        html += "<th class=\"n\">seconds</th><th>digest (XXH64)</th></tr></thead><tbody>\n"
        for input in report.inputs {
            html +=
                "<tr><td><code>\(HTMLText.escaped(input.source))</code></td><td>\(HTMLText.escaped(input.entity))</td><td>\(HTMLText.escaped(input.format))</td><td class=\"n\">\(HTMLText.bytes(input.bytes))</td><td class=\"n\">\(HTMLText.figure(input.counts.read))</td><td class=\"n\">\(HTMLText.figure(input.counts.rejected))</td><td class=\"n\">\(String(format: "%.2f", input.seconds))</td><td><code>\(input.digest ?? "—")</code></td></tr>\n"
        }
        return html + "</tbody></table></section>\n"
    }

    private func deletes(_ report: RunReport) -> String {
        guard let deletes = report.deletes else { return "" }
        var html =
            "<section id=\"deletes\"><h2>\(deletes.phase == "documents" ? "Children replaced" : "Sync deletes")</h2>"
        if let refused = deletes.refused {
            html += "<p class=\"reason\">Nothing deleted: \(HTMLText.escaped(refused))</p>"
        }
        let deleted = deletes.deleted.sorted { $0.key < $1.key }
        if !deleted.isEmpty {
            html += "<table><tbody>"
            for (entity, count) in deleted {
                html +=
                    "<tr><td>\(HTMLText.escaped(entity))</td><td class=\"n\" data-figure=\"deleted.\(HTMLText.escaped(entity))\">\(HTMLText.figure(count))</td></tr>"
            }
            html += "</tbody></table>"
        }
        html +=
            "<p class=\"note\">\(HTMLText.figure(deletes.nullified)) nullified, \(HTMLText.figure(deletes.denied.count)) kept; deletes.ndjson lists them.</p>"
        return html + "</section>\n"
    }

    private func historySection() -> String {
        var html = "<section id=\"history\"><h2>The store's last runs</h2>"
        guard let history, !history.isEmpty else {
            let why =
                history == nil
                ? "No history here: <code>importer report html PIPELINE</code> draws the store's, for a store that keeps one (SQLite)."
                : "This is the store's first run."
            return html + "<p>\(why)</p></section>\n"
        }
        let runs = Array(history.prefix(Self.historyRuns).reversed())
        let marked = report.flatMap { report in runs.firstIndex { $0.runId == report.runId } }
        let written = runs.map { Double($0.inserted + $0.updated) }
        let rejected = runs.map { Double($0.rejected) }
        let seconds = runs.map { $0.finished.timeIntervalSince($0.started) }
        html += "<div class=\"charts\">"
        html +=
            "<figure><figcaption>Records written (inserted + updated)</figcaption>\(PageCharts.history(written, marked: marked, unit: { HTMLText.figure(Int($0)) }, title: "records written per run"))</figure>"
        html +=
            "<figure><figcaption>Records rejected</figcaption>\(PageCharts.history(rejected, marked: marked, unit: { HTMLText.figure(Int($0)) }, title: "records rejected per run"))</figure>"
        html +=
            "<figure><figcaption>Duration</figcaption>\(PageCharts.history(seconds, marked: marked, unit: HTMLText.duration, title: "duration per run"))</figure>"
        html += "</div>"
        html += "<table><thead><tr><th>started</th><th>status</th><th class=\"n\">read</th><th class=\"n\">written</th>"
        html += "<th class=\"n\">rejected</th><th class=\"n\">duration</th><th>run</th></tr></thead><tbody>\n"
        for (index, run) in runs.enumerated().reversed() {
            let this = index == marked
            html +=
                "<tr\(this ? " class=\"total\"" : "") data-run=\"\(HTMLText.escaped(run.runId))\"><td>\(run.started.formatted(.iso8601))</td><td>\(run.status?.rawValue ?? "?")</td><td class=\"n\">\(HTMLText.figure(run.read))</td><td class=\"n\">\(HTMLText.figure(run.inserted + run.updated))</td><td class=\"n\">\(HTMLText.figure(run.rejected))</td><td class=\"n\">\(HTMLText.duration(seconds[index]))</td><td>\(this ? "this run" : "<code>\(HTMLText.escaped(String(run.runId.prefix(8))))</code>")</td></tr>\n"
        }
        return html + "</tbody></table></section>\n"
    }
}
