import Foundation

/// The human summary printed at the end of a run: one row per entity.
package enum SummaryTable {
    package static func render(_ report: RunReport) -> String {
        let header = [
            "entity", "read", "inserted", "updated", "unchanged", "rejected", "conflicts", "deleted", "retries",
            "seconds", "rows/s",
        ]
        var rows = report.entities.map { entity -> [String] in
            let c = entity.counts
            return [
                entity.entity, "\(c.read)", "\(c.inserted)", "\(c.updated)", "\(c.unchanged)", "\(c.rejected)",
                "\(c.conflicts)", "\(c.deleted)", "\(c.retries)", String(format: "%.2f", entity.seconds),
                String(format: "%.0f", entity.rowsPerSecond),
            ]
        }
        let t = report.totals
        rows.append([
            "total", "\(t.read)", "\(t.inserted)", "\(t.updated)", "\(t.unchanged)", "\(t.rejected)",
            "\(t.conflicts)", "\(t.deleted)", "\(t.retries)", String(format: "%.2f", report.seconds),
            String(format: "%.0f", report.seconds > 0 ? Double(t.read) / report.seconds : 0),
        ])
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }.joined(separator: " | ")
        }
        var text =
            line(header) + "\n" + widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-") + "\n"
        text += rows.map(line).joined(separator: "\n") + "\n"
        var status = "status: \(report.status.rawValue)"
        if t.rolledBack > 0 { status += ", rolled back: \(t.rolledBack)" }
        if t.notWritten > 0 { status += ", not written: \(t.notWritten)" }
        if t.unknown > 0 { status += ", written or not (answer lost): \(t.unknown)" }
        if let reason = report.abortReason ?? report.errorLimit { status += " — \(reason)" }
        text += status + "\n"
        if let documents = report.documents {
            text +=
                "documents: \(documents.read) read, \(documents.rejected) rejected whole; \(documents.recordsRejected) of their \(documents.records) records rejected\n"
            text += partWritten(documents.partWritten ?? [])
        }
        text += rejections(report.errors)
        text += missingReferences(report.entities)
        if let since = report.unchangedSince {
            text +=
                "inputs unchanged since run \(since), which stored every record, and nothing has written to the store since: no record read or written (--read-unchanged reads them)\n"
        }
        if let resumed = report.resumed {
            text +=
                "resumed run \(resumed.runId): its first \(resumed.recordsDone) records were already done; the counts cover the whole run\n"
        }
        if let deletes = report.deletes {
            let name = deletes.phase == "documents" ? "replacing documents' children" : "sync"
            if let refused = deletes.refused {
                text += "\(name) deletes refused: \(refused)\n"
            } else {
                let verbs = report.dryRun ? ("would delete", "nullify", "keep") : ("deleted", "nullified", "kept")
                text +=
                    "\(name) \(verbs.0) \(deletes.deleted.values.reduce(0, +)) item(s), \(verbs.1) \(deletes.nullified), \(verbs.2) \(deletes.denied.count) (see deletes.ndjson, report.json)\n"
                for denied in deletes.denied.prefix(5) {
                    text += "  kept \(denied.entity) '\(denied.key)': \(denied.message)\n"
                }
                for warning in deletes.warnings ?? [] { text += "warning: \(warning)\n" }
            }
        }
        return text
    }

    /// The rejections by reason and field, largest first, as report.json groups them (groups
    /// of different stages taken together): `reference  Checkin.locationId → Location  1,204`.
    static func rejections(_ groups: [RunReport.ErrorGroup], shown: Int = 10) -> String {
        var counts: [String: Int] = [:], order: [String] = []
        var labels: [String: (reason: String, what: String)] = [:]
        for group in groups {
            var what = group.entity + (group.field.map { ".\($0)" } ?? "")
            if let target = group.target { what += " → \(target)" }
            let label = group.reason.rawValue + " " + what
            if counts[label] == nil { order.append(label); labels[label] = (group.reason.rawValue, what) }
            counts[label, default: 0] += group.count
        }
        guard !order.isEmpty else { return "" }
        let sorted = order.enumerated().sorted { (counts[$0.element]!, $1.offset) > (counts[$1.element]!, $0.offset) }
            .map(\.element)
        let rows = sorted.prefix(shown).map { [labels[$0]!.reason, labels[$0]!.what, Self.grouped(counts[$0]!)] }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max()! }
        var text = "rejected, by reason:\n"
        for row in rows {
            text +=
                "  " + row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0) + "  "
                + row[1].padding(toLength: widths[1], withPad: " ", startingAt: 0) + "  "
                + String(repeating: " ", count: widths[2] - row[2].count) + row[2] + "\n"
        }
        if sorted.count > shown { text += "  … and \(sorted.count - shown) more (errors in report.json)\n" }
        return text
    }

    /// The documents left part-written, the first five named: what `--resume` or the next run
    /// must finish.
    static func partWritten(_ documents: [RunReport.DocumentCounts.PartWritten]) -> String {
        guard !documents.isEmpty else { return "" }
        var text =
            "warning: \(grouped(documents.count)) documents part-written (the store cannot write a document as one unit); "
            + "run again to finish them (docs/documents.md#part-written-documents):\n"
        for document in documents.prefix(5) {
            let key = document.key?.json ?? "no key"
            text +=
                "  \(document.entity) \(key) (\(document.source) line \(document.line)): \(document.written) records written, \(document.notWritten) not\n"
        }
        if documents.count > 5 {
            text += "  … and \(documents.count - 5) more (documents.partWritten in report.json)\n"
        }
        return text
    }

    /// References stored although they name no item: `Checkin.location → Location  12 missing, nullified`.
    static func missingReferences(_ entities: [RunReport.EntityReport]) -> String {
        var rows: [(String, String)] = []
        for entity in entities {
            for (relationship, counted) in (entity.references ?? [:]).sorted(by: { $0.key < $1.key }) {
                let verb = counted.action == ReferencePolicy.nullify.rawValue ? "nullified" : "kept"
                rows.append(
                    (
                        "\(entity.entity).\(relationship) → \(counted.target)",
                        "\(grouped(counted.missing)) missing, \(verb)"
                    ))
            }
        }
        guard !rows.isEmpty else { return "" }
        let width = rows.map(\.0.count).max()!
        return "missing references stored:\n"
            + rows.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 + "\n" }
            .joined()
    }

    /// `1204` → `1,204`.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }
}
