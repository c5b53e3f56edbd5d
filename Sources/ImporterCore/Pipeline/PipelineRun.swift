import Foundation
import Logging

/// One run of a pipeline (docs/pipeline.md): read, map and validate (`ReadStage`, whose records a
/// `RecordPreparer` prepares) → key checks (`KeyStage`) → version and write (`WriteStage`) → the
/// report (`RunReportAssembler`). Each stage is a type that owns its state.
///
/// The read stage runs on the calling thread (or, for inputs a reader can cut into parts,
/// hands the parts to `PartParsers`); the key stage and the write stage run on threads of their
/// own. Records move between them by value over bounded channels; what they share (counts,
/// rejections, the abort state) is in a `RunRecorder`. A run is built for one run: `start()`
/// consumes it.
///
/// ## Topics
/// - ``start()``
/// - ``checkConfiguration(_:model:versions:)``
package struct PipelineRun: ~Copyable {
    /// Opens a reader for one input file of a source.
    package typealias RecordReaderMaker = (_ source: SourceConfig, _ path: String) throws -> RecordReader

    private let config: PipelineConfig
    private let model: Model
    /// Every version of the model, for sources written against an older one.
    private let versions: VersionedModel?
    private let store: (any Store)?
    private let makeReader: RecordReaderMaker
    private let options: RunOptions
    private var runId: String { options.runId }

    /// SQLite's default transaction size: each commit rewrites many B-tree pages, so large.
    private static let defaultBatchSize = 200_000

    /// In a dry run `store` is only asked whether referenced items exist (it may be nil).
    /// `versions` (the model directory) lets sources name an older `modelVersion`.
    package init(
        config: PipelineConfig, model: Model, versions: VersionedModel? = nil, store: (any Store)?, options: RunOptions,
        makeReader: @escaping RecordReaderMaker
    ) {
        self.config = config
        self.model = model
        self.versions = versions
        self.store = store
        self.options = options
        self.makeReader = makeReader
    }

    /// Where the report files go.
    package var reportDirectory: String { options.reportDirectory(pipelineDefault: config.reportDirectory) }

    /// Checks what can be checked before anything is opened or written: entities, maps,
    /// source model versions.
    package static func checkConfiguration(_ config: PipelineConfig, model: Model, versions: VersionedModel? = nil)
        throws
    {
        _ = try RunInput.ordered(config, model, versions)
    }

    /// Checks `--shard` and `--entities` against the pipeline (`ConfigurationError`): the
    /// entities must be the model's and have sources; a sharded run writes to DynamoDB (a
    /// SQLite store is one file that one process writes) and is not `mode: sync` (its deletes
    /// need every record).
    package static func checkSelection(_ options: RunOptions, config: PipelineConfig, model: Model) throws {
        if let entities = options.entities {
            for name in entities where !config.sources.contains(where: { $0.entity == name }) {
                if let root = config.sources.first(where: { $0.children.contains { $0.names(name) } }) {
                    throw ConfigurationError(
                        file: config.file, key: "sources",
                        "--entities: \(name) is loaded from the documents of \(root.entity), with them; select \(root.entity)"
                    )
                }
                let known = model.entity(named: name) != nil
                throw ConfigurationError(
                    file: config.file, key: "sources",
                    known
                        ? "--entities: no source loads \(name)"
                        : "--entities: \(name) is not an entity of model \(model.name); use one of: \(model.entities.map(\.name).joined(separator: ", "))"
                )
            }
        }
        guard let shard = options.shard else { return }
        if config.destination.kind == .sqlite && !options.dryRun {
            throw ConfigurationError(
                file: config.file, key: "destination",
                "--shard \(shard): a SQLite store is one file that one process writes; shard runs that write to DynamoDB, or run without --shard"
            )
        }
        if config.write.mode == .sync {
            throw ConfigurationError(
                file: config.file, key: "write",
                "--shard \(shard): mode sync deletes what the run did not read, and a shard reads a slice; run sync without --shard"
            )
        }
    }

    /// Runs the pipeline, records it in the store's history and writes the report files. The
    /// caller readies the report directory first (`ReportFiles.prepare`, before it opens the
    /// store), which removes the last run's reports.
    /// Throws `ConfigurationError` (nothing written) for problems found before the first
    /// record, and `ReportNotWrittenError` when the run ended but its reports could not be written.
    package consuming func start() throws -> RunReport {
        let inputs = try RunInput.ordered(config, model, versions).selected(
            entities: options.entities, shard: options.shard)
        let started = Date()
        let atomic = config.write.atomic && !options.dryRun
        let writing = options.dryRun ? nil : store
        let unchanged = UnchangedInputCheck(
            inputs, config: config, model: model, versions: versions, store: store, options: options)
        try FileManager.default.createDirectory(atPath: reportDirectory, withIntermediateDirectories: true)
        let recorder = RunRecorder(
            inputs: inputs.map {
                .init(source: $0.path, entity: $0.entity.name, format: $0.format.rawValue, errorUnit: $0.errorUnit)
            },
            limits: config.errors)
        if !options.readUnchanged, let unchanged, let stored = try unchanged.recordedRun() {
            return try reportUnchanged(
                stored, digests: unchanged.digests.map(\.hex), recorder: recorder, started: started)
        }
        let resume = try resumePoint(inputs, atomic: atomic, digests: unchanged?.digests)
        listenForInterruptions(inputs, recorder, atomic: atomic, resume: resume)
        let rejectsFile = try RejectsFile(path: FilePaths.join(reportDirectory, "rejects.ndjson"))
        let sampler = TimelineSampler(recorder)
        try writing?.beginRun(atomic: atomic)
        let bulk = try writing.map { try bulkLoad(inputs, on: $0, resuming: resume.interrupted != nil) } ?? []

        let (checkedKeys, checkpoint, rejectedDocumentKeys) = runStages(
            inputs, recorder: recorder, resume: resume, bulk: bulk, rejectsFile: rejectsFile)
        var keys = checkedKeys

        // Every record is written: the delete phase (which runs whole) and the last commit are
        // what is left, and a signal from here on stops nothing.
        recorder.finishesWhole()
        let deletes = keys.flatMap { keys in
            deletePhase(
                inputs, keys: keys, rejectedWhileWriting: rejectedDocumentKeys, checkpoint: checkpoint,
                resume: resume, recorder: recorder)
        }
        keys = nil  // the key ledger's memory goes back before a bulk load's build sorts
        if let writing {
            finish(
                writing, atomic: atomic, clearCheckpoint: checkpoint != nil, inputs: inputs, bulk: bulk,
                recorder: recorder)
        }
        if resume.interrupted == nil { unchanged?.record(recorder, runId: runId) }
        var report = RunReportAssembler(
            runId: runId, config: config, model: model, dryRun: options.dryRun, bulkEntities: bulk,
            digests: unchanged?.digests.map(\.hex)
        )
        .report(recorder, started: started, deletes: deletes)
        report.timeline = sampler.stop()
        report.resumed = resume.interrupted.map {
            RunReport.Resume(runId: $0.runId, recordsDone: $0.inputs.map(\.nextRecord).reduce(0, +))
        }
        return try publish(report)
    }

    /// Turns a request to stop into the run's interruption, with what to do next; counts the
    /// write outcomes of the run this one resumes (reading and checking recount the rest).
    private func listenForInterruptions(
        _ inputs: [RunInput], _ recorder: RunRecorder, atomic: Bool, resume: ResumePoint
    ) {
        let hint =
            atomic
            ? "the atomic run is rolled back"
            : resume.checkpoint != nil
                ? "committed batches stay; run it again with --resume to continue after the last one"
                : "committed batches stay; run it again to finish"
        options.interruption?.onInterrupt { [recorder] reason in recorder.interrupt("\(reason); \(hint)") }
        for state in resume.interrupted?.inputs ?? [] {
            recorder.update(input: inputs.firstIndex { $0.checkpointName == state.path }!) { $0 = $0 + state.written }
        }
    }

    /// Runs the stages over `inputs`: the read stage on this thread, the key stage and the
    /// write stage on threads of their own. Returns the key stage (what the delete phases ask
    /// of the keys), the last checkpoint saved, and the records of documents the write stage rejected.
    private func runStages(
        _ inputs: [RunInput], recorder: RunRecorder, resume: ResumePoint, bulk: Set<String>,
        rejectsFile: sending RejectsFile
    ) -> (keys: KeyStage?, checkpoint: Checkpoint?, rejectedDocumentKeys: Set<EntityKey>) {
        let writing = options.dryRun ? nil : store
        let stages = Stages()
        let keyThread = StageThread(
            "key stage",
            owning: KeyStage(
                inputs: inputs, model: model, ledger: KeyLedger(memoryLimit: options.keysInMemory), store: store,
                recorder: recorder, resume: resume,
                keepsRejectedKeys: config.write.mode == .sync
                    || !ChildReplacePhase.replacedInputs(inputs, mode: config.write.mode).isEmpty,
                keepsLoadedKeys: ChildReplacePhase.parentInputs(inputs, mode: config.write.mode))
        ) { [stages] keys in
            keys.run(from: stages.parsed, to: stages.checked)
            return keys
        }
        let batchSize =
            (writing as? any OverlappedWriting)?.preferredCommitSize ?? config.write.batchSize ?? Self.defaultBatchSize
        let writeThread = StageThread(
            "write stage",
            owning: WriteStage(
                inputs: inputs, store: writing, recorder: recorder, rejectsFile: rejectsFile,
                rules: Dictionary(
                    uniqueKeysWithValues: model.entities.map {
                        ($0.name, VersionRules(entity: $0, write: config.write))
                    }),
                batchSize: batchSize, resume: resume, bulkEntities: bulk)
        ) { [stages] writer in
            writer.run(from: stages.checked)
            return (checkpoint: writer.checkpoint, rejectedDocumentKeys: writer.rejectedDocumentKeys)
        }
        ReadStage(
            inputs: inputs, pipelineFile: config.file, makeReader: makeReader, recorder: recorder,
            parsed: stages.parsed,
            written: stages.written, progress: options.progress, packedDocumentBytes: options.packedDocumentBytes
        ).run()
        let keys = keyThread.join()
        let (checkpoint, rejectedDocumentKeys) = writeThread.join()
        return (keys, checkpoint, rejectedDocumentKeys)
    }

    /// The delete phase once every input is written: `mode: sync`'s, or of the children that
    /// left their documents; nil when there is none. Its deletes are committed with the
    /// `checkpoint`, which then names them, and a run resuming one whose phase committed
    /// reports that phase's deletes (and writes its deletes.ndjson again) instead of running it.
    /// On a store that cannot roll back, the checkpoint names the deletes planned before the
    /// first is made: a run resuming one stopped among them makes the rest and reports them all.
    private func deletePhase(
        _ inputs: [RunInput], keys: KeyStage, rejectedWhileWriting: Set<EntityKey>, checkpoint: Checkpoint?,
        resume: ResumePoint, recorder: RunRecorder
    ) -> RunReport.DeletePhase? {
        guard let store else { return nil }
        let interrupted = resume.interrupted?.deletes
        if let committed = interrupted, committed.planned != true, !recorder.isAborted {
            do {
                try DeletesFile.write(committed.lines, to: FilePaths.join(reportDirectory, "deletes.ndjson"))
            } catch {
                recorder.abort(AbortReason(.input, "cannot write deletes.ndjson: \(error)"))
            }
            return committed.phase
        }
        let committing: ((Checkpoint.CommittedDeletes) throws -> Void)? = checkpoint.map { last in
            { deletes in
                var next = last
                next.deletes = deletes
                try store.saveCheckpoint(next, adding: [])
            }
        }
        let planning: ((Checkpoint.CommittedDeletes) throws -> Void)? =
            store.rollsBack
            ? nil
            : committing.map { save in
                { planned in
                    try save(planned)
                    try store.commit()
                }
            }
        let interruptedPlan = interrupted?.planned == true ? interrupted?.lines : nil
        if config.write.mode == .sync {
            return SyncDeletePhase(
                model: model, inputs: inputs, store: store, limit: config.write.maxDeletes, dryRun: options.dryRun,
                reportDirectory: reportDirectory, committing: committing, planning: planning,
                interruptedPlan: interruptedPlan
            ).run(keys: keys, recorder: recorder)
        }
        return ChildReplacePhase(
            model: model, inputs: inputs, store: store, dryRun: options.dryRun, reportDirectory: reportDirectory,
            resumed: resume.interrupted != nil, committing: committing, planning: planning,
            interruptedPlan: interruptedPlan
        ).run(
            keys: keys, rejectedWhileWriting: rejectedWhileWriting.union(keys.rejectedBeforeResume),
            recorder: recorder, mode: config.write.mode)
    }

    /// Records the run (with its shard, if it is one) in the store's history, then writes its
    /// report files. The history is written first, so that it names every run the store's
    /// records cite even when the reports cannot be written (`ReportNotWrittenError`, which
    /// carries the report).
    private func publish(_ report: RunReport) throws -> RunReport {
        var report = report
        report.shard = options.shard.map {
            ShardOfRun($0, entities: options.entities, pipelineDigest: config.textDigest)
        }
        let history = store as? any RunHistory
        if !options.dryRun, let history { try? history.recordRun(report) }
        let recent = try? history?.recentRuns(limit: ReportPage.historyRuns)
        let finishedInput: (RunStatus?) -> Bool = { $0 == .succeeded || $0 == .partial }
        RunMetrics.record(
            report,
            lastSuccess: !report.dryRun && finishedInput(report.status)
                ? report.finishedAt : recent?.first { finishedInput($0.status) }?.finished)
        do {
            try ReportFiles.write(report, to: reportDirectory, history: recent)
        } catch {
            throw ReportNotWrittenError(report: report, directory: reportDirectory, underlying: error)
        }
        return report
    }

    /// The report of a run whose inputs the store holds unchanged since `stored.runId`: every
    /// record counted read and unchanged, no byte of them read (`bytes` and `seconds` 0),
    /// nothing written.
    private func reportUnchanged(
        _ stored: (runId: String, records: [Int]), digests: [String], recorder: RunRecorder, started: Date
    ) throws
        -> RunReport
    {
        try RejectsFile(path: FilePaths.join(reportDirectory, "rejects.ndjson")).close()
        for (index, records) in stored.records.enumerated() {
            recorder.update(input: index) { counts in
                counts.read = records
                counts.unchanged = records
            }
        }
        let report = RunReportAssembler(
            runId: runId, config: config, model: model, dryRun: false, bulkEntities: [], unchangedSince: stored.runId,
            digests: digests
        )
        .report(recorder, started: started, deletes: nil)
        return try publish(report)
    }

    /// Where this run starts, and whether it saves checkpoints.
    private func resumePoint(_ inputs: [RunInput], atomic: Bool, digests: [InputDigest]?) throws -> ResumePoint {
        if let store, !options.dryRun, !atomic, options.checkpoints {
            return try ResumePoint(
                store: store, inputs: inputs, digests: digests, pipelineFile: config.file, runId: runId,
                resume: options.resume, logger: options.logger)
        }
        if options.resume {
            options.logger.warning(
                "--resume has no effect here: \(atomic ? "an atomic run commits all or nothing" : "a dry run writes nothing"); running from the beginning"
            )
        }
        return ResumePoint(inputCount: inputs.count)
    }

    /// The entities the store loads on its bulk path: those it takes of the run's entities. No
    /// new bulk load starts when `write.bulk` is off or the run syncs (its deletes, and their
    /// delete rules, need the items stored).
    private func bulkLoad(_ inputs: [RunInput], on store: any BatchWriting, resuming: Bool) throws -> Set<String> {
        var entities: [Entity] = []
        for input in inputs where !entities.contains(where: { $0.name == input.entity.name }) {
            entities.append(input.entity)
        }
        guard let store = store as? any BulkLoading else { return [] }
        return try store.beginBulkLoad(
            of: entities, newLoads: config.write.bulk && config.write.mode != .sync, resuming: resuming)
    }

    /// Commits what is still open (or rolls back an aborted atomic run; the store builds the
    /// tables of a bulk load then) and forgets the checkpoint of a run that finished.
    private func finish(
        _ store: any BatchWriting & RunCheckpoints, atomic: Bool, clearCheckpoint: Bool, inputs: [RunInput],
        bulk: Set<String>, recorder: RunRecorder
    ) {
        var failed = false
        do {
            try store.finishRun(commit: !(atomic && recorder.isAborted))
        } catch {
            recorder.abort(.store("the store failed to commit", error))
            failed = true
        }
        for (index, input) in inputs.enumerated()
        where (atomic && recorder.isAborted) || (failed && bulk.contains(input.entity.name)) {
            // Not stored: an atomic run rolled back, or the bulk load's tables were not built
            // (its staged rows stay for --resume).
            recorder.update(input: index) { $0 = atomic ? $0.lost() : $0.unapplied() }
        }
        if clearCheckpoint, !recorder.isAborted {
            do { try store.clearCheckpoint() } catch { recorder.abort(.store("cannot clear the checkpoint", error)) }
        }
    }
}

/// The channels between the stages of one run.
private struct Stages: Sendable {
    /// Read stage and part parsers → key stage, in input order; a stage runs a hand-over or
    /// two ahead of the next.
    let parsed = Sequencer<ParsedItem>(window: 2)
    /// Key stage → write stage.
    let checked = BoundedChannel<CheckedItem>(capacity: 2)
    /// Write stage → read stage: records written, to be freed where they were made.
    let written = Handback<[PreparedRecord]>()
}
