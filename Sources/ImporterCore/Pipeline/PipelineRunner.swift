import Foundation

/// Options of one run that are not in the pipeline file.
public struct RunOptions: Sendable {
    /// Read, map and validate only; write nothing to the store (`importer validate`).
    public var dryRun = false
    public var quiet = false
    /// Overrides the pipeline's `report.directory`.
    public var reportDirectory: String?
    /// Continue after the checkpoint of an interrupted run (SPEC §12).
    public var resume = false
    /// Save a checkpoint with every commit. Off for inputs that are not files of their own
    /// (a restore's archive entries): such a run is started again instead, and its replays are
    /// unchanged items.
    public var checkpoints = true
    /// Accept an edited model file for the store's version (`--accept-model-change`).
    public var acceptModelChange = false

    public init(dryRun: Bool = false, quiet: Bool = false, reportDirectory: String? = nil, resume: Bool = false, checkpoints: Bool = true,
                acceptModelChange: Bool = false) {
        self.dryRun = dryRun
        self.quiet = quiet
        self.reportDirectory = reportDirectory
        self.resume = resume
        self.checkpoints = checkpoints
        self.acceptModelChange = acceptModelChange
    }
}

/// Runs a pipeline: read → map → validate → version → write → report.
///
/// Three stages linked by short queues: reading, mapping and validation on the calling thread
/// (or, for inputs a reader can cut into parts, on part parsers the calling thread feeds); key
/// checks (duplicates, references) and the accounting of what was read on a thread of its own;
/// writing on another. Records are counted and rejections recorded in input order.
public final class PipelineRunner: @unchecked Sendable {
    /// Opens a reader for one input file of a source.
    public typealias ReaderFactory = (_ source: SourceConfig, _ path: String) throws -> RecordReader

    private let config: PipelineConfig
    private let model: Model
    /// Every version of the model, for sources written against an older one.
    private let versions: VersionedModel?
    private let store: Store?
    private let ledger: KeyLedger
    private let makeReader: ReaderFactory
    private let options: RunOptions
    private let runId = UUID().uuidString.lowercased()
    /// Set once at the start of `run`, before the writer thread starts; read-only after.
    private var inputs: [Input] = []
    /// Records the writer is done with, freed by the reading thread that allocated them (memory
    /// freed on another thread than the allocating one contends on malloc's locks).
    private let writtenWindows = Handback<[PreparedRecord]>()
    /// Parts of inputs for the part parsers (nil tells one to stop), and their threads' end.
    private let parts = BoundedQueue<Part?>(capacity: 1)
    private var partParsersDone: DispatchGroup?
    /// Numbers items for the key stage, which takes them in this order. Reading thread only.
    private var nextSequence = 0
    /// Sync: keys of rejected records (`Entity/key`), whose items must not be deleted, and the
    /// rejected records of each entity whose key could not be read. Key stage only.
    private var rejectedKeys = Set<String>()
    private var unkeyedRejects: [String: Int] = [:]
    /// Resume: per input, the records already done by the interrupted run. Set before the writer starts.
    private var skipBefore: [Int] = []
    /// Resume: the interrupted run's write-stage rejections, by input and record number.
    private var doneRejections: [[Int: Rejection]] = []
    /// The checkpoint saved with every commit; nil when the run keeps none (dry or atomic runs).
    /// Writer thread only, once started.
    private var checkpoint: Checkpoint?
    private var fingerprints: [InputFingerprint] = []

    /// One input file of a source, in the order the run processes them (parents first).
    private struct Input {
        let source: SourceConfig
        let path: String
        let entity: Entity
        /// The entity as the dump's model version has it (`entity` unless the source has an
        /// older `modelVersion`), and the migration of its records to the run's version.
        let sourceEntity: Entity
        let migration: MigrationPlan?
        /// How checkpoints name the file: absolute, so a resume from another directory finds it.
        let absolutePath: String

        init(source: SourceConfig, path: String, entity: Entity, sourceEntity: Entity, migration: MigrationPlan?) {
            self.source = source
            self.path = path
            self.entity = entity
            self.sourceEntity = sourceEntity
            self.migration = migration
            absolutePath = PipelineRunner.absolute(path)
        }
    }

    private enum Work {
        case records(input: Int, [PreparedRecord], handback: Handback<[PreparedRecord]>)
        case inputDone(input: Int, bytes: Int64)
        case end
    }

    /// Records per hand-over between the threads, and per call of `Store.write` (which may sort
    /// them by key): small, so memory stays flat; transactions span many (`write.batchSize`).
    private static let chunkSize = 8192
    /// SQLite's default transaction size: each commit rewrites many B-tree pages, so large.
    private static let defaultBatchSize = 200_000

    /// In a dry run `store` is only asked whether referenced items exist (it may be nil).
    /// `versions` (the model directory) lets sources name an older `modelVersion`.
    public init(config: PipelineConfig, model: Model, versions: VersionedModel? = nil, store: Store?, ledger: KeyLedger,
                options: RunOptions, makeReader: @escaping ReaderFactory) {
        self.config = config
        self.model = model
        self.versions = versions
        self.store = store
        self.ledger = ledger
        self.options = options
        self.makeReader = makeReader
    }

    public var reportDirectory: String { options.reportDirectory ?? config.reportDirectory }

    /// Runs the pipeline and writes the report files. Throws `ConfigurationError` (nothing
    /// written) for problems found before the first record.
    public func run() throws -> RunReport {
        inputs = try Self.orderedInputs(config, model, versions)
        let started = Date()
        let atomic = config.write.atomic && !options.dryRun
        skipBefore = Array(repeating: 0, count: inputs.count)
        doneRejections = Array(repeating: [:], count: inputs.count)
        var interrupted: Checkpoint?
        if let store, !options.dryRun, !atomic, options.checkpoints {
            interrupted = try startCheckpoints(store)
        } else if options.resume {
            note("--resume has no effect here: \(atomic ? "an atomic run commits all or nothing" : "a dry run writes nothing"); running from the beginning")
        }
        try FileManager.default.createDirectory(atPath: reportDirectory, withIntermediateDirectories: true)
        let rejectsFile = try RejectsFile(path: (reportDirectory as NSString).appendingPathComponent("rejects.ndjson"))
        defer { rejectsFile.close() }
        let recorder = RunRecorder(
            inputs: inputs.map { .init(source: $0.path, entity: $0.entity.name, format: format(of: $0).rawValue) },
            limits: config.errors, rejectsFile: rejectsFile)

        if let interrupted {
            // The interrupted run's write outcomes; reading and checking recount the rest.
            for state in interrupted.inputs {
                recorder.update(input: inputs.firstIndex { $0.absolutePath == state.path }!) { $0 = $0 + state.written }
            }
        }
        if let store, !options.dryRun { try store.beginRun(atomic: atomic) }

        // Parsing (this thread, and part parsers once an input is cut into parts), key checks,
        // writing; each stage can run a hand-over or two ahead of the next.
        let parsed = Sequencer<Parsed>(window: 2)
        let queue = BoundedQueue<Work>(capacity: 2)
        let writerFinished = DispatchSemaphore(value: 0)
        Thread { [self] in checkKeys(from: parsed, into: queue, recorder: recorder) }.start()
        Thread { [self] in
            drain(queue, recorder: recorder)
            writerFinished.signal()
        }.start()

        let progress = Progress(quiet: options.quiet)
        let totalBytes = inputs.reduce(Int64(0)) { $0 + fileSize($1.path) }
        var bytesBefore: Int64 = 0
        for (index, input) in inputs.enumerated() where !recorder.isAborted {
            let bytes = parse(input, index: index, into: parsed, recorder: recorder) { bytesRead, records in
                progress.update(input: (input.path as NSString).lastPathComponent, records: records,
                                bytesRead: bytesBefore + bytesRead, totalBytes: totalBytes)
            }
            bytesBefore += bytes
        }
        if let partParsersDone {
            for _ in 0..<Self.partParserCount { parts.put(nil) }
            partParsersDone.wait()
        }
        parsed.put(.end, sequence: takeSequence())
        writerFinished.wait()
        progress.finish()

        recorder.checkFinalRatio()
        var deletes: RunReport.DeletePhase?
        if let store, config.write.mode == .sync {
            deletes = syncDeletes(store, recorder: recorder)
        }
        if let store, !options.dryRun {
            let commit = !(atomic && recorder.isAborted)
            do {
                try store.finishRun(commit: commit)
            } catch {
                recorder.abort("the store failed to commit: \(error)")
            }
            if atomic && recorder.isAborted {
                for index in inputs.indices { recorder.update(input: index) { $0 = $0.lost() } }
            }
            if checkpoint != nil, !recorder.isAborted {
                do { try store.clearCheckpoint() } catch { recorder.abort("cannot clear the checkpoint: \(error)") }
            }
        }
        var report = makeReport(recorder: recorder, started: started, deletes: deletes)
        report.resumed = interrupted.map { RunReport.Resume(runId: $0.runId, recordsDone: $0.inputs.map(\.nextRecord).reduce(0, +)) }
        try ReportFiles.write(report, to: reportDirectory)
        return report
    }

    // MARK: Parsing stage

    private enum Parsed {
        case chunk(input: Int, ParsedChunk)
        case inputDone(input: Int, bytes: Int64)
        case end
    }

    /// Records of an input that a reader cut off, for one of the part parsers.
    private struct Part {
        let sequence: Int
        let preparer: RecordPreparer
        let reader: RecordReader
    }

    /// Threads that parse parts of inputs, started at the first part: with the reading thread
    /// cutting parts, parsing (the busiest stage of a re-run) spreads over the cores.
    private static let partParserCount = 2
    /// Records per part: half a chunk, as more parts are in flight than chunks (peak memory).
    private static let partSize = chunkSize / 2

    /// Reads, maps, validates and migrates one input file, handing chunks to the key stage.
    /// Returns the bytes read.
    private func parse(_ input: Input, index: Int, into parsed: Sequencer<Parsed>, recorder: RunRecorder,
                       progress: (Int64, Int) -> Void) -> Int64 {
        recorder.started(input: index)
        let reader: RecordReader
        let preparer: RecordPreparer
        do {
            reader = try makeReader(input.source, input.path)
            let mapper = try RecordMapper(entity: input.sourceEntity, map: input.source.map, file: config.file, line: input.source.line)
            preparer = RecordPreparer(inputIndex: index, entity: input.sourceEntity, mapper: mapper,
                                      dateFormat: input.source.map.dateFormat, migration: input.migration)
        } catch {
            recorder.abort("cannot read \(input.path): \(error)")
            return 0
        }
        if let partitioned = reader as? PartitionedRecordReader {
            parseInParts(partitioned, preparer, input: input, into: parsed, recorder: recorder, progress: progress)
        } else {
            parseHere(reader, preparer, input: input, into: parsed, recorder: recorder, progress: progress)
        }
        parsed.put(.inputDone(input: index, bytes: reader.bytesRead), sequence: takeSequence())
        return reader.bytesRead
    }

    /// Parses an input on this thread, a chunk at a time.
    private func parseHere(_ reader: RecordReader, _ preparer: RecordPreparer, input: Input, into parsed: Sequencer<Parsed>,
                           recorder: RunRecorder, progress: (Int64, Int) -> Void) {
        var chunk = ParsedChunk(capacity: Self.chunkSize, handback: writtenWindows)
        var readCount = 0
        while true {
            do {
                guard let record = try reader.next() else { break }
                preparer.prepare(record, into: &chunk)
            } catch {
                recorder.abort("reading \(input.path) failed: \(error)")
                break
            }
            readCount += 1
            if readCount & 1023 == 0 {
                progress(reader.bytesRead, readCount)
                if recorder.isAborted { break }
            }
            if chunk.count >= Self.chunkSize {
                parsed.put(.chunk(input: preparer.inputIndex, chunk), sequence: takeSequence())
                writtenWindows.releaseAll()
                chunk = ParsedChunk(capacity: Self.chunkSize, handback: writtenWindows)
            }
        }
        if chunk.count > 0 { parsed.put(.chunk(input: preparer.inputIndex, chunk), sequence: takeSequence()) }
    }

    /// Cuts an input into parts, `partSize` records each, for the part parsers.
    private func parseInParts(_ reader: PartitionedRecordReader, _ preparer: RecordPreparer, input: Input,
                              into parsed: Sequencer<Parsed>, recorder: RunRecorder, progress: (Int64, Int) -> Void) {
        if partParsersDone == nil {
            partParsersDone = DispatchGroup()
            for _ in 0..<Self.partParserCount {
                partParsersDone!.enter()
                Thread { [self] in
                    parseParts(into: parsed, recorder: recorder)
                    partParsersDone!.leave()
                }.start()
            }
        }
        while !recorder.isAborted {
            do {
                guard let part = try reader.nextPart(maximumRecords: Self.partSize) else { break }
                parts.put(Part(sequence: takeSequence(), preparer: preparer, reader: part))
            } catch {
                recorder.abort("reading \(input.path) failed: \(error)")
                break
            }
            progress(reader.bytesRead, recorder.recordsRead(input: preparer.inputIndex))
        }
    }

    /// A part parser's thread: parses parts until told to stop (nil), each into one chunk.
    private func parseParts(into parsed: Sequencer<Parsed>, recorder: RunRecorder) {
        let handback = Handback<[PreparedRecord]>()
        var preparer: RecordPreparer?
        while let part = parts.take() {
            handback.releaseAll()
            if preparer?.inputIndex != part.preparer.inputIndex { preparer = part.preparer.copy() }
            var chunk = ParsedChunk(capacity: Self.chunkSize, handback: handback)
            do {
                while let record = try part.reader.next() { preparer!.prepare(record, into: &chunk) }
            } catch {
                recorder.abort("reading \(inputs[part.preparer.inputIndex].path) failed: \(error)")
            }
            parsed.put(.chunk(input: part.preparer.inputIndex, chunk), sequence: part.sequence)
        }
    }

    /// The number of the next item for the key stage. Reading thread only.
    private func takeSequence() -> Int {
        defer { nextSequence += 1 }
        return nextSequence
    }

    // MARK: Key stage

    /// The key stage's thread: counts what was read, records rejections in input order, checks
    /// keys (duplicates, references) and passes the records that remain to the writer.
    private func checkKeys(from parsed: Sequencer<Parsed>, into queue: BoundedQueue<Work>, recorder: RunRecorder) {
        var stop = false
        // The number in its input of the next chunk's first record.
        var ordinalBase = 0
        while true {
            switch parsed.take() {
            case .end:
                queue.put(.end)
                return
            case .inputDone(let input, let bytes):
                ordinalBase = 0
                queue.put(.inputDone(input: input, bytes: bytes))
            case .chunk(let input, var chunk):
                guard !stop else { continue }  // aborted: what was read ahead is not counted
                let read = chunk.count
                stop = checkKeys(of: &chunk, input: input, ordinalBase: ordinalBase, recorder: recorder)
                ordinalBase += read
                if !chunk.records.isEmpty { queue.put(.records(input: input, chunk.records, handback: chunk.handback)) }
            }
        }
    }

    /// Rejects the chunk's records that fail the key checks or were written before an
    /// interruption, keeping the rest in `chunk.records` with their numbers in the input (the
    /// chunk's first is `ordinalBase`). Returns true when the run aborted.
    private func checkKeys(of chunk: inout ParsedChunk, input index: Int, ordinalBase: Int, recorder: RunRecorder) -> Bool {
        let entity = inputs[index].entity
        let references = entity.toOneRelationships.compactMap { relationship -> (Int, Entity)? in
            guard let key = relationship.key, let parent = model.entity(named: relationship.destination) else { return nil }
            return (entity.attributeIndex[key]!, parent)
        }
        let syncing = config.write.mode == .sync
        var pendingRead = 0
        var stop = false
        func reject(line: Int, offset: Int64, raw: ArraySlice<UInt8>, key: Value?, _ rejection: Rejection) {
            if syncing {
                if let key, !key.isNull { rejectedKeys.insert("\(entity.name)/\(key)") } else { unkeyedRejects[entity.name, default: 0] += 1 }
            }
            recorder.read(input: index, count: pendingRead)
            pendingRead = 0
            recorder.reject(input: index, line: line, offset: offset, key: key, raw: raw, rejection)
            stop = recorder.isAborted
        }
        for position in chunk.rejects.indices { chunk.rejects[position].ordinal += ordinalBase }
        var nextReject = chunk.rejects.startIndex
        func rejectParsed(before ordinal: Int) {
            while !stop, nextReject < chunk.rejects.endIndex, chunk.rejects[nextReject].ordinal < ordinal {
                let parsed = chunk.rejects[nextReject]
                nextReject += 1
                pendingRead += 1
                reject(line: parsed.line, offset: parsed.byteOffset, raw: parsed.raw, key: parsed.key, parsed.rejection)
            }
        }

        var kept = 0
        for position in chunk.records.indices {
            chunk.records[position].ordinal += ordinalBase
            let ordinal = chunk.records[position].ordinal
            rejectParsed(before: ordinal)
            if stop { break }
            if pendingRead >= 1024 {
                recorder.read(input: index, count: pendingRead)
                pendingRead = 0
                if recorder.isAborted { stop = true; break }
            }
            pendingRead += 1
            let values = chunk.records[position].values
            let line = chunk.records[position].line
            if let rejection = checkKeys(values, entity: entity, references: references,
                                         at: RecordLocation(inputIndex: index, line: line)) {
                reject(line: line, offset: chunk.records[position].byteOffset, raw: chunk.records[position].raw,
                       key: values[entity.hashKeyIndex], rejection)
                continue
            }
            // Written before the interruption: its outcome is in the checkpoint.
            if ordinal < skipBefore[index] {
                if let rejection = doneRejections[index][ordinal] {
                    reject(line: line, offset: chunk.records[position].byteOffset, raw: chunk.records[position].raw,
                           key: values[entity.hashKeyIndex], rejection)
                }
                continue
            }
            chunk.records.swapAt(kept, position)
            kept += 1
        }
        rejectParsed(before: Int.max)
        recorder.read(input: index, count: pendingRead)
        chunk.records.removeLast(chunk.records.count - kept)
        return stop
    }

    /// Duplicate keys within the run, and to-one references.
    private func checkKeys(_ values: [Value], entity: Entity, references: [(Int, Entity)], at location: RecordLocation) -> Rejection? {
        do {
            for (attributeIndex, parent) in references {
                let key = values[attributeIndex]
                if key.isNull { continue }
                guard try ledger.contains(key, entity: parent.name) || store?.contains(key, in: parent) == true else {
                    let attribute = entity.attributes[attributeIndex].name
                    return Rejection(stage: .validate, reason: .reference, field: attribute,
                        "\(attribute): '\(key)' names no \(parent.name) in this run's input or in the store")
                }
            }
            let key = values[entity.hashKeyIndex]
            if let first = try ledger.record(key, entity: entity.name, at: location) {
                let file = first.inputIndex == location.inputIndex ? "" : " of \(inputs[first.inputIndex].path)"
                return Rejection(stage: .validate, reason: .duplicate, field: entity.hashKey,
                    "\(entity.hashKey) '\(key)' already appeared on line \(first.line)\(file); the first occurrence is kept")
            }
        } catch {
            return Rejection(stage: .validate, reason: .constraint, "key check failed: \(error)")
        }
        return nil
    }

    // MARK: Writing side

    /// The writer thread: applies records a hand-over at a time, commits every
    /// `write.batchSize` records and at the end of each input, and counts outcomes once they
    /// are committed.
    private func drain(_ queue: BoundedQueue<Work>, recorder: RunRecorder) {
        let rules = Dictionary(uniqueKeysWithValues: model.entities.map {
            ($0.name, VersionRules(entity: $0, write: config.write))
        })
        let batchSize = store?.preferredCommitSize ?? config.write.batchSize ?? Self.defaultBatchSize
        var window: [PreparedRecord] = []
        var input = 0
        // Where the window goes once written, to be freed by the thread that made it.
        var handback = writtenWindows
        var uncommitted = Counts()
        var uncommittedRecords = 0
        // For the checkpoint: the records the store rejected, and the last record of the batch.
        var uncommittedRejects: [Checkpoint.WriteRejection] = []
        var lastOrdinal = -1

        func applyWindow() {
            defer {
                handback.put(window)
                window = []
            }
            guard !window.isEmpty else { return }
            guard let store, !options.dryRun else {
                // Dry run: every valid record would have been written.
                recorder.update(input: input) { $0.inserted += window.count }
                return
            }
            if recorder.isAborted {
                recorder.update(input: input) { $0.rolledBack += window.count }
                return
            }
            let entity = inputs[input].entity
            for index in window.indices where window[index].ordinal > lastOrdinal { lastOrdinal = window[index].ordinal }
            do {
                let outcomes = try store.write(window, of: entity, rules: rules[entity.name]!)
                uncommitted = uncommitted + count(outcomes, of: window, input: input, recorder: recorder)
                uncommitted.retries += store.takeRetries(of: entity)
                if checkpoint != nil { uncommittedRejects += writeRejections(outcomes, of: window, input: input) }
                uncommittedRecords += window.count
            } catch {
                recorder.abort("the store failed: \(error)")
                uncommitted.retries += store.takeRetries(of: entity)
                recorder.update(input: input) { [uncommitted] in $0 = $0 + uncommitted.lost() }
                recorder.update(input: input) { $0.rolledBack += window.count }
                uncommitted = Counts()
                uncommittedRecords = 0
                uncommittedRejects = []
            }
        }

        func commit() {
            applyWindow()
            guard let store, !options.dryRun, uncommittedRecords > 0 else { return }
            do {
                if var next = checkpoint {
                    let path = inputs[input].absolutePath
                    let done = (next.state(of: path)?.written ?? Counts()) + uncommitted
                    next.inputs.removeAll { $0.path == path }
                    next.inputs.append(.init(path: path, fingerprint: fingerprints[input],
                                             nextRecord: lastOrdinal + 1, written: done))
                    try store.saveCheckpoint(next, adding: uncommittedRejects)
                    try store.commit()
                    checkpoint = next
                } else {
                    try store.commit()
                }
                recorder.update(input: input) { [uncommitted] in $0 = $0 + uncommitted }
            } catch {
                recorder.abort("the store failed: \(error)")
                recorder.update(input: input) { [uncommitted] in $0 = $0 + uncommitted.lost() }
            }
            uncommitted = Counts()
            uncommittedRecords = 0
            uncommittedRejects = []
        }

        while true {
            switch queue.take() {
            case .end:
                commit()
                return
            case .inputDone(let done, let bytes):
                commit()
                lastOrdinal = -1
                recorder.finished(input: done, bytes: bytes)
            case .records(let from, var records, let madeBy):
                input = from
                handback = madeBy
                while !records.isEmpty {
                    // A hand-over is written as one window, unless it crosses a batch boundary:
                    // commits fall exactly on it.
                    let room = batchSize - uncommittedRecords
                    if records.count <= room {
                        swap(&window, &records)
                    } else {
                        window = Array(records[..<room])
                        records.removeFirst(room)
                    }
                    if uncommittedRecords + window.count >= batchSize { commit() } else { applyWindow() }
                }
            }
        }
    }

    /// Counts outcomes (to be applied at commit); rejections are recorded at once.
    private func count(_ outcomes: [WriteOutcome], of records: [PreparedRecord], input: Int, recorder: RunRecorder) -> Counts {
        var counts = Counts()
        let keyIndex = inputs[input].entity.hashKeyIndex
        for (index, outcome) in outcomes.enumerated() {
            switch outcome.result {
            case .inserted: counts.inserted += 1
            case .updated: counts.updated += 1
            case .unchanged: counts.unchanged += 1
            case .rolledBack: counts.rolledBack += 1
            case .rejected(let rejection):
                let record = records[index]
                recorder.reject(input: input, line: record.line, offset: record.byteOffset, key: record.values[keyIndex],
                                raw: record.raw, rejection)
                continue  // the recorder counts the rejection and its conflict
            }
            if outcome.conflict { counts.conflicts += 1 }
        }
        return counts
    }

    /// The records the store rejected, for the checkpoint (the recorder has counted them).
    private func writeRejections(_ outcomes: [WriteOutcome], of records: [PreparedRecord], input: Int) -> [Checkpoint.WriteRejection] {
        // By index: a record is only read when it was rejected (copying each one costs retains).
        outcomes.indices.compactMap { index in
            guard case .rejected(let rejection) = outcomes[index].result else { return nil }
            return .init(path: inputs[input].absolutePath, record: records[index].ordinal, reason: rejection.reason,
                         field: rejection.field, message: rejection.message)
        }
    }

    // MARK: Resume

    /// Fingerprints the inputs and, for `--resume`, takes over the interrupted run's checkpoint
    /// (returned): refuses it, before anything is written, if an input changed.
    private func startCheckpoints(_ store: Store) throws -> Checkpoint? {
        fingerprints = try inputs.map { try InputFingerprint(of: $0.path) }
        checkpoint = Checkpoint(pipeline: Self.absolute(config.file), runId: runId)
        let previous = try store.loadCheckpoint()
        guard options.resume else {
            if previous != nil {
                note("a checkpoint of an interrupted run exists; starting from the beginning (pass --resume to continue it)")
                try store.clearCheckpoint()  // its rejections must not be listed again by a later --resume
            }
            return nil
        }
        guard let previous else {
            note("--resume: no interrupted run to continue; starting from the beginning")
            return nil
        }
        guard previous.pipeline == Self.absolute(config.file) else {
            throw ConfigurationError(file: config.file,
                "--resume: the store's checkpoint belongs to pipeline \(previous.pipeline); run that pipeline with --resume, or run this one without it")
        }
        for state in previous.inputs {
            guard let index = inputs.firstIndex(where: { $0.absolutePath == state.path }) else {
                throw ConfigurationError(file: config.file,
                    "--resume: \(state.path) was an input of the interrupted run but is not one now; run without --resume to start over (records already written count as unchanged)")
            }
            guard fingerprints[index] == state.fingerprint else {
                throw ConfigurationError(file: state.path,
                    "--resume: the input changed since the interrupted run (size \(state.fingerprint.size) → \(fingerprints[index].size) bytes, or different content in its first MiB), so its first \(state.nextRecord) records may not be the ones written; run without --resume to start over (records already written count as unchanged)")
            }
            skipBefore[index] = state.nextRecord
        }
        for rejection in previous.rejections {
            if let index = inputs.firstIndex(where: { $0.absolutePath == rejection.path }) {
                doneRejections[index][rejection.record] = rejection.rejection
            }
        }
        checkpoint!.inputs = previous.inputs
        return previous
    }

    /// Checkpoints name files by absolute path, so a resume from another directory finds them.
    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    private func note(_ message: String) {
        FileHandle.standardError.write(Data("importer: \(message)\n".utf8))
    }

    // MARK: Sync

    /// The delete phase of `mode: sync`, once every input is written: stored items of the
    /// pipeline's entities that no record named are deleted (SPEC §6); a dry run only plans it.
    /// Writes `deletes.ndjson`.
    private func syncDeletes(_ store: Store, recorder: RunRecorder) -> RunReport.DeletePhase {
        var phase = RunReport.DeletePhase()
        if let reason = recorder.abortMessage {
            phase.refused = "the run was aborted (\(reason)); sync deletes nothing after an incomplete read"
            return phase
        }
        let entities = model.parentsFirstOrder.compactMap { name in
            inputs.contains { $0.entity.name == name } ? model.entity(named: name) : nil
        }
        if let (entity, count) = unkeyedRejects.first {
            phase.refused = "\(count) rejected \(entity) record(s) have no readable key, so sync cannot tell which stored items vanished; nothing was deleted. Fix them (see rejects.ndjson) and run again"
            return phase
        }
        do {
            let sync = SyncDeletes(model: model, store: store, limit: config.write.maxDeletes)
            let outcome = try sync.run(entities: entities, preview: options.dryRun) {
                [ledger, rejectedKeys] entity, key in
                try ledger.contains(key, entity: entity.name) || rejectedKeys.contains("\(entity.name)/\(key)")
            }
            phase = RunReport.DeletePhase(outcome)
            try DeletesFile.write(outcome, to: (reportDirectory as NSString).appendingPathComponent("deletes.ndjson"))
        } catch {
            if options.dryRun {
                phase.refused = "cannot plan the delete phase: \(error)"
            } else {
                recorder.abort("the sync delete phase failed: \(error)")
                phase.refused = "the store failed during the delete phase; nothing of it was committed"
            }
        }
        return phase
    }

    // MARK: Set-up and report

    /// Checks what can be checked before anything is opened or written: entities, maps,
    /// source model versions, write mode.
    public static func checkConfiguration(_ config: PipelineConfig, model: Model, versions: VersionedModel? = nil) throws {
        _ = try orderedInputs(config, model, versions)
    }

    /// Every input file, parents-first by the model's relationships, in pipeline order within an entity.
    private static func orderedInputs(_ config: PipelineConfig, _ model: Model, _ versions: VersionedModel?) throws -> [Input] {
        var sourceEntities: [(Entity, MigrationPlan?)] = []
        for source in config.sources {
            guard let entity = model.entity(named: source.entity) else {
                throw ConfigurationError(file: config.file, line: source.line, key: "entity",
                    "'\(source.entity)' is not an entity of model \(model.name) v\(model.version); use one of: \(model.entities.map(\.name).joined(separator: ", "))")
            }
            let (sourceEntity, migration) = try migration(of: source, entity, config, model, versions)
            _ = try RecordMapper(entity: sourceEntity, map: source.map, file: config.file, line: source.line)
            sourceEntities.append((sourceEntity, migration))
        }
        var inputs: [Input] = []
        for entityName in model.parentsFirstOrder {
            let entity = model.entity(named: entityName)!
            for (index, source) in config.sources.enumerated() where source.entity == entityName {
                let (sourceEntity, migration) = sourceEntities[index]
                inputs += source.paths.map { Input(source: source, path: $0, entity: entity, sourceEntity: sourceEntity, migration: migration) }
            }
        }
        return inputs
    }

    /// A source written against an older model version: its entity in that version, and the
    /// plan that migrates its records to the run's version (migrate-on-read, SPEC §9).
    private static func migration(of source: SourceConfig, _ entity: Entity, _ config: PipelineConfig, _ model: Model,
                                  _ versions: VersionedModel?) throws -> (Entity, MigrationPlan?) {
        guard let version = source.modelVersion, version != model.version else { return (entity, nil) }
        let at = { (message: String) in ConfigurationError(file: config.file, line: source.line, key: "modelVersion", message) }
        guard version < model.version else {
            throw at("the dump was written against model version \(version), newer than the run's version \(model.version); migrate the store to \(version) and run with that version")
        }
        guard let versions, versions.version(version) != nil else {
            throw at("model version \(version) is not in \(config.modelPath)")
        }
        let plan = try MigrationPlan(versions, from: version, to: model.version)
        guard let name = plan.originalName(ofEntity: entity.name), let old = plan.from.entity(named: name) else {
            throw at("\(entity.name) is new after version \(version), so a dump of version \(version) cannot hold it")
        }
        return (old, plan)
    }

    private func format(of input: Input) -> InputFormat {
        input.source.format ?? InputFormat(path: input.path) ?? .csv
    }

    private func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    private func makeReport(recorder: RunRecorder, started: Date, deletes: RunReport.DeletePhase?) -> RunReport {
        let finished = Date()
        let inputReports = recorder.inputs.map { input in
            RunReport.InputReport(
                source: input.source, entity: input.entity, format: input.format, bytes: input.bytes,
                seconds: (input.finished ?? finished).timeIntervalSince(input.started ?? finished), counts: input.counts)
        }
        var entities: [RunReport.EntityReport] = []
        for entity in model.parentsFirstOrder {
            let mine = inputReports.filter { $0.entity == entity }
            let deleted = deletes?.deleted[entity] ?? 0
            guard !mine.isEmpty || deleted > 0 else { continue }
            var counts = mine.map(\.counts).reduce(Counts(), +)
            counts.deleted = deleted
            let seconds = mine.map(\.seconds).reduce(0, +)
            entities.append(.init(entity: entity, seconds: seconds,
                                  rowsPerSecond: seconds > 0 ? Double(counts.read) / seconds : 0, counts: counts))
        }
        let totals = entities.map(\.counts).reduce(Counts(), +)
        let abortReason = recorder.abortMessage
        let deletesIncomplete = deletes.map { $0.refused != nil || !$0.denied.isEmpty } ?? false
        let status: RunReport.Status = abortReason != nil ? .aborted : (totals.rejected > 0 || deletesIncomplete ? .partial : .succeeded)
        let exitCode: Int32 = status == .aborted ? 3 : (status == .partial ? 1 : 0)
        return RunReport(
            runId: runId, pipeline: config.name, pipelineFile: config.file, dryRun: options.dryRun,
            status: status, abortReason: abortReason, exitCode: exitCode, startedAt: started, finishedAt: finished,
            seconds: finished.timeIntervalSince(started),
            model: .init(name: model.name, version: model.version, checksum: model.checksum),
            destination: .init(type: config.destination.kind.rawValue, path: config.destination.path),
            totals: totals, entities: entities, inputs: inputReports, errors: recorder.errorGroups, deletes: deletes)
    }
}
