import Foundation

/// The human summary printed at the end of a run: one row per entity.
public enum SummaryTable {
    public static func render(_ report: RunReport) -> String {
        let header = ["entity", "read", "inserted", "updated", "unchanged", "rejected", "conflicts", "deleted", "retries", "seconds", "rows/s"]
        var rows = report.entities.map { entity -> [String] in
            let c = entity.counts
            return [entity.entity, "\(c.read)", "\(c.inserted)", "\(c.updated)", "\(c.unchanged)", "\(c.rejected)",
                    "\(c.conflicts)", "\(c.deleted)", "\(c.retries)", String(format: "%.2f", entity.seconds),
                    String(format: "%.0f", entity.rowsPerSecond)]
        }
        let t = report.totals
        rows.append(["total", "\(t.read)", "\(t.inserted)", "\(t.updated)", "\(t.unchanged)", "\(t.rejected)",
                     "\(t.conflicts)", "\(t.deleted)", "\(t.retries)", String(format: "%.2f", report.seconds),
                     String(format: "%.0f", report.seconds > 0 ? Double(t.read) / report.seconds : 0)])
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }.joined(separator: " | ")
        }
        var text = line(header) + "\n" + widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-") + "\n"
        text += rows.map(line).joined(separator: "\n") + "\n"
        var status = "status: \(report.status.rawValue)"
        if t.rolledBack > 0 { status += ", rolled back: \(t.rolledBack)" }
        if let reason = report.abortReason ?? report.errorLimit { status += " — \(reason)" }
        text += status + "\n"
        if let resumed = report.resumed {
            text += "resumed run \(resumed.runId): its first \(resumed.recordsDone) records were already done; the counts cover the whole run\n"
        }
        if let deletes = report.deletes {
            if let refused = deletes.refused {
                text += "sync deletes refused: \(refused)\n"
            } else {
                let verbs = report.dryRun ? ("would delete", "nullify", "keep") : ("deleted", "nullified", "kept")
                text += "sync \(verbs.0) \(deletes.deleted.values.reduce(0, +)) item(s), \(verbs.1) \(deletes.nullified), \(verbs.2) \(deletes.denied.count) (see deletes.ndjson, report.json)\n"
                for denied in deletes.denied.prefix(5) { text += "  kept \(denied.entity) '\(denied.key)': \(denied.message)\n" }
            }
        }
        return text
    }
}
