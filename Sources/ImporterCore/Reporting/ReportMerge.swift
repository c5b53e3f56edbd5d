import Foundation

/// The reports of the shards of one run (`--shard K/N`, docs/dynamodb.md#sharded-runs) summed
/// into one: counts per entity and per input added up, rejection groups and missing references
/// joined (examples up to the usual number), the worst status and exit code, the span from the
/// first start to the last finish. `importer report merge` writes it.
package enum ReportMerge {
    /// Merges `reports` (`reports[i]` read from `files[i]`): at least one, all the shards of
    /// one run (`ShardSet`), of one model. Throws a `ConfigurationError` naming the report
    /// that does not fit, or whose counts would pass the largest count.
    package static func merge(_ reports: [RunReport], files: [String]) throws -> RunReport {
        guard var merged = reports.first, let firstFile = files.first else {
            throw ConfigurationError(file: "report merge", "no report to merge; give the shards' report folders")
        }
        try ShardSet.check(reports, files: files)
        for (report, file) in zip(reports, files).dropFirst() {
            guard report.pipeline == merged.pipeline, report.model.checksum == merged.model.checksum else {
                throw ConfigurationError(
                    file: file,
                    "the reports are of different runs: pipeline \(merged.pipeline) with model \(merged.model.name) v\(merged.model.version) in \(firstFile), and pipeline \(report.pipeline) with model \(report.model.name) v\(report.model.version) here"
                )
            }
            try add(report, to: &merged, sum: CheckedSum(file: file))
        }
        merged.runId = UUID().uuidString.lowercased()
        merged.mergedRuns = reports.map(\.runId)
        merged.shard = nil
        merged.timeline = nil  // the shards ran side by side: each report keeps its own
        merged.seconds = merged.finishedAt.timeIntervalSince(merged.startedAt)
        for index in merged.entities.indices {
            let entity = merged.entities[index]
            merged.entities[index].rowsPerSecond = entity.seconds > 0 ? Double(entity.counts.read) / entity.seconds : 0
        }
        merged.resumed = nil
        return merged
    }

    private static func add(_ report: RunReport, to merged: inout RunReport, sum: CheckedSum) throws {
        merged.dryRun = merged.dryRun || report.dryRun
        if severity(report.status) > severity(merged.status) { merged.status = report.status }
        merged.exitCode = max(merged.exitCode, report.exitCode)
        merged.abortReason =
            [merged.abortReason, report.abortReason].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
        merged.abortCause = merged.abortCause ?? report.abortCause
        merged.storeFailure = merged.storeFailure ?? report.storeFailure
        merged.errorLimit = merged.errorLimit ?? report.errorLimit
        merged.startedAt = min(merged.startedAt, report.startedAt)
        merged.finishedAt = max(merged.finishedAt, report.finishedAt)
        merged.totals = try sum.add(merged.totals, report.totals, "totals")
        for entity in report.entities {
            try add(entity, to: &merged.entities, matching: { $0.entity == entity.entity }) { total in
                total.counts = try sum.add(total.counts, entity.counts, "entities[\(entity.entity)].counts")
                total.seconds = max(total.seconds, entity.seconds)
                total.references = try references(total.references, entity.references, sum: sum, entity: entity.entity)
            }
        }
        for input in report.inputs {
            // Each shard reads a sliced file whole: its bytes once, its records summed.
            try add(input, to: &merged.inputs, matching: { $0.source == input.source && $0.entity == input.entity }) {
                total in
                total.counts = try sum.add(total.counts, input.counts, "inputs[\(input.source)].counts")
                total.bytes = max(total.bytes, input.bytes)
                total.seconds = max(total.seconds, input.seconds)
            }
        }
        for group in report.errors {
            try add(
                group, to: &merged.errors,
                matching: {
                    $0.entity == group.entity && $0.stage == group.stage && $0.reason == group.reason
                        && $0.field == group.field && $0.target == group.target
                }
            ) { total in
                total.count = try sum.add(
                    total.count, group.count,
                    "errors[\(group.entity) \(group.stage.rawValue)/\(group.reason.rawValue)].count")
                total.examples = Array((total.examples + group.examples).prefix(RunRecorder.examplesPerGroup))
            }
        }
        if let documents = report.documents {
            var total = merged.documents ?? RunReport.DocumentCounts()
            total.read = try sum.add(total.read, documents.read, "documents.read")
            total.rejected = try sum.add(total.rejected, documents.rejected, "documents.rejected")
            total.records = try sum.add(total.records, documents.records, "documents.records")
            total.recordsRejected = try sum.add(
                total.recordsRejected, documents.recordsRejected, "documents.recordsRejected")
            if let partWritten = documents.partWritten { total.partWritten = (total.partWritten ?? []) + partWritten }
            merged.documents = total
        }
        if let deletes = report.deletes {
            var total = merged.deletes ?? RunReport.DeletePhase()
            for (entity, count) in deletes.deleted {
                total.deleted[entity] = try sum.add(total.deleted[entity] ?? 0, count, "deletes.deleted.\(entity)")
            }
            total.nullified = try sum.add(total.nullified, deletes.nullified, "deletes.nullified")
            total.denied += deletes.denied
            total.refused = [total.refused, deletes.refused].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
            merged.deletes = total
        }
    }

    /// Folds `element` into the one of `list` it `matching`es (`combine`), or appends it.
    private static func add<Element>(
        _ element: Element, to list: inout [Element], matching: (Element) -> Bool,
        combine: (inout Element) throws -> Void
    ) rethrows {
        guard let index = list.firstIndex(where: matching) else { return list.append(element) }
        try combine(&list[index])
    }

    private static func references(
        _ a: [String: RunReport.MissingReferences]?, _ b: [String: RunReport.MissingReferences]?,
        sum: CheckedSum, entity: String
    ) throws -> [String: RunReport.MissingReferences]? {
        guard var total = a, let b else { return a ?? b }
        for (relationship, more) in b {
            guard var both = total[relationship] else {
                total[relationship] = more
                continue
            }
            both.missing = try sum.add(
                both.missing, more.missing, "entities[\(entity)].references.\(relationship).missing")
            both.examples = Array((both.examples + more.examples).prefix(RunRecorder.examplesPerReference))
            total[relationship] = both
        }
        return total
    }

    private static func severity(_ status: RunReport.Status) -> Int {
        switch status {
        case .succeeded: 0
        case .partial: 1
        case .aborted, .interrupted: 2
        }
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
