import Foundation

/// Assembles a run's report at its end: the figures per input and per entity, the status and
/// exit code (docs/reports.md), from what the stages recorded.
struct RunReportAssembler {
    let runId: String
    let config: PipelineConfig
    let model: Model
    let dryRun: Bool
    /// Entities the store loaded on its bulk path.
    let bulkEntities: Set<String>
    /// The run whose stored records this one found its inputs unchanged since, if it did.
    var unchangedSince: String? = nil
    /// Each input's digest, when the run took them.
    var digests: [String]? = nil

    func report(_ recorder: RunRecorder, started: Date, deletes: RunReport.DeletePhase?) -> RunReport {
        let finished = Date()
        let inputReports = recorder.inputs.enumerated().map { index, input in
            RunReport.InputReport(
                source: input.source, entity: input.entity, format: input.format, bytes: input.bytes,
                seconds: (input.finished ?? finished).timeIntervalSince(input.started ?? finished),
                counts: input.counts,
                digest: digests?[index]
            )
        }
        let entities = entityReports(inputReports, deletes: deletes, references: recorder.missingReferences)
        let totals = entities.map(\.counts).reduce(Counts(), +)
        let abort = recorder.abortReason, errorLimit = recorder.errorLimit
        let deletesIncomplete = deletes.map { $0.refused != nil || !$0.denied.isEmpty } ?? false
        let partWritten = recorder.partWrittenDocuments
        let status: RunReport.Status =
            abort != nil
            ? (recorder.wasInterrupted ? .interrupted : .aborted)
            : (totals.rejected > 0 || deletesIncomplete || errorLimit != nil || !partWritten.isEmpty
                ? .partial : .succeeded)
        let exitCode: Int32 =
            switch status {
            case .succeeded: 0
            case .partial: 1
            case .aborted, .interrupted: 3
            }
        var report = RunReport(
            runId: runId, pipeline: config.name, pipelineFile: config.file, dryRun: dryRun,
            status: status, abortReason: abort?.message, abortCause: abort?.cause,
            storeFailure: abort?.storeFailure?.name,
            errorLimit: errorLimit, exitCode: exitCode, startedAt: started, finishedAt: finished,
            seconds: finished.timeIntervalSince(started),
            model: .init(name: model.name, version: model.version, checksum: model.checksum),
            destination: .init(type: config.destination.kind.rawValue, path: config.destination.path),
            totals: totals, entities: entities, inputs: inputReports, errors: recorder.errorGroups, deletes: deletes,
            unchangedSince: unchangedSince)
        report.documents = Self.documents(recorder.inputs)
        if !partWritten.isEmpty { report.documents?.partWritten = partWritten }
        return report
    }

    /// The documents of the document sources among `inputs`; nil when there is none.
    private static func documents(_ inputs: [RunRecorder.Input]) -> RunReport.DocumentCounts? {
        guard inputs.contains(where: { $0.errorUnit == .document }) else { return nil }
        var documents = RunReport.DocumentCounts()
        for input in inputs {
            switch input.errorUnit {
            case .record: continue
            case .document:
                documents.read += input.counts.read
                documents.rejected += input.counts.rejected
            case .partialElement, .withDocument: break
            }
            documents.records += input.counts.read
            documents.recordsRejected += input.counts.rejected
        }
        return documents
    }

    private func writePath(_ entity: String) -> RunReport.WritePath? {
        if dryRun { return nil }
        if unchangedSince != nil { return .unchangedInput }
        return bulkEntities.contains(entity) ? .bulk : .incremental
    }

    /// The policy of each to-one relationship of `entity`, as its sources set them; nil when
    /// it has none.
    private func referencePolicies(_ entity: String) -> [String: String]? {
        guard let model = model.entity(named: entity) else { return nil }
        let sources = config.sources.filter { $0.entity == entity }
        var policies: [String: String] = [:]
        for relationship in model.toOneRelationships where !relationship.keys.isEmpty {
            let applied = Set(sources.map { $0.references.policy(for: relationship.name).rawValue })
            if !applied.isEmpty { policies[relationship.name] = applied.sorted().joined(separator: "/") }
        }
        return policies.isEmpty ? nil : policies
    }

    /// One row per entity with inputs or deletes, parents first.
    private func entityReports(
        _ inputs: [RunReport.InputReport], deletes: RunReport.DeletePhase?,
        references: [String: [String: RunReport.MissingReferences]]
    ) -> [RunReport.EntityReport] {
        model.parentsFirstOrder.compactMap { entity in
            let mine = inputs.filter { $0.entity == entity }
            let deleted = deletes?.deleted[entity] ?? 0
            guard !mine.isEmpty || deleted > 0 else { return nil }
            var counts = mine.map(\.counts).reduce(Counts(), +)
            counts.deleted = deleted
            let seconds = mine.map(\.seconds).reduce(0, +)
            return .init(
                entity: entity, seconds: seconds, rowsPerSecond: seconds > 0 ? Double(counts.read) / seconds : 0,
                counts: counts,
                references: references[entity], referencePolicies: referencePolicies(entity),
                writePath: writePath(entity))
        }
    }
}
