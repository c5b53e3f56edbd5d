import Foundation

/// The reports of the shards of one run (`--shard K/N`, SPEC §17) summed into one: counts per
/// entity and per input added up, rejection groups and missing references joined (examples
/// up to the usual number), the worst status and exit code, the span from the first start to
/// the last finish. `importer report merge` writes it.
public enum ReportMerge {
    /// Merges `reports` (at least one, all of the same pipeline and model).
    public static func merge(_ reports: [RunReport]) throws -> RunReport {
        guard var merged = reports.first else { throw ReportMergeError("no report to merge") }
        for report in reports.dropFirst() {
            guard report.pipeline == merged.pipeline, report.model.checksum == merged.model.checksum else {
                throw ReportMergeError(
                    "the reports are of different runs: pipeline \(merged.pipeline) with model \(merged.model.name) v\(merged.model.version), and pipeline \(report.pipeline) with model \(report.model.name) v\(report.model.version)")
            }
            add(report, to: &merged)
        }
        merged.runId = UUID().uuidString.lowercased()
        merged.mergedRuns = reports.map(\.runId)
        merged.seconds = merged.finishedAt.timeIntervalSince(merged.startedAt)
        for index in merged.entities.indices {
            let entity = merged.entities[index]
            merged.entities[index].rowsPerSecond = entity.seconds > 0 ? Double(entity.counts.read) / entity.seconds : 0
        }
        merged.resumed = nil
        return merged
    }

    private static func add(_ report: RunReport, to merged: inout RunReport) {
        merged.dryRun = merged.dryRun || report.dryRun
        if severity(report.status) > severity(merged.status) { merged.status = report.status }
        merged.exitCode = max(merged.exitCode, report.exitCode)
        merged.abortReason = [merged.abortReason, report.abortReason].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
        merged.errorLimit = merged.errorLimit ?? report.errorLimit
        merged.startedAt = min(merged.startedAt, report.startedAt)
        merged.finishedAt = max(merged.finishedAt, report.finishedAt)
        merged.totals = merged.totals + report.totals
        for entity in report.entities {
            add(entity, to: &merged.entities, matching: { $0.entity == entity.entity }) { sum in
                sum.counts = sum.counts + entity.counts
                sum.seconds = max(sum.seconds, entity.seconds)
                sum.references = references(sum.references, entity.references)
            }
        }
        for input in report.inputs {
            // Each shard reads a sliced file whole: its bytes once, its records summed.
            add(input, to: &merged.inputs, matching: { $0.source == input.source && $0.entity == input.entity }) { sum in
                sum.counts = sum.counts + input.counts
                sum.bytes = max(sum.bytes, input.bytes)
                sum.seconds = max(sum.seconds, input.seconds)
            }
        }
        for group in report.errors {
            add(group, to: &merged.errors, matching: {
                $0.entity == group.entity && $0.stage == group.stage && $0.reason == group.reason && $0.field == group.field && $0.target == group.target
            }) { sum in
                sum.count += group.count
                sum.examples = Array((sum.examples + group.examples).prefix(RunRecorder.examplesPerGroup))
            }
        }
        if let deletes = report.deletes {
            var sum = merged.deletes ?? RunReport.DeletePhase()
            sum.deleted.merge(deletes.deleted, uniquingKeysWith: +)
            sum.nullified += deletes.nullified
            sum.denied += deletes.denied
            sum.refused = [sum.refused, deletes.refused].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
            merged.deletes = sum
        }
    }

    /// Folds `element` into the one of `list` it `matching`es (`combine`), or appends it.
    private static func add<Element>(_ element: Element, to list: inout [Element], matching: (Element) -> Bool,
                                     combine: (inout Element) -> Void) {
        guard let index = list.firstIndex(where: matching) else { return list.append(element) }
        combine(&list[index])
    }

    private static func references(_ a: [String: RunReport.MissingReferences]?, _ b: [String: RunReport.MissingReferences]?)
        -> [String: RunReport.MissingReferences]? {
        guard let a, let b else { return a ?? b }
        return a.merging(b) { first, second in
            var sum = first
            sum.missing += second.missing
            sum.examples = Array((first.examples + second.examples).prefix(RunRecorder.examplesPerReference))
            return sum
        }
    }

    private static func severity(_ status: RunReport.Status) -> Int {
        switch status {
        case .succeeded: 0
        case .partial: 1
        case .aborted, .interrupted: 2
        }
    }
}

/// Reports that cannot be merged.
public struct ReportMergeError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
