/// The version-and-write stage: applies records a hand-over at a time (the store applies the
/// version rules), commits every `batchSize` records and at the end of each input, counts
/// outcomes once they are committed, saves the checkpoint with every commit, and writes
/// rejects.ndjson in input order. Runs on a thread of its own, which owns it.
final class WriteStage {
    private let inputs: [RunInput]
    /// Nil in a dry run: every valid record counts as inserted.
    private let store: (any BatchWriting & RunCheckpoints)?
    private let recorder: RunRecorder
    private let rejectsFile: RejectsFile
    private let rules: [String: VersionRules]
    private let batchSize: Int
    private let fingerprints: [InputFingerprint]
    /// The checkpoint saved with every commit; nil when the run keeps none.
    private(set) var checkpoint: Checkpoint?

    /// The input of the records being written, and where they go once written.
    private var input = 0
    private var handback: Handback<[PreparedRecord]>
    /// Outcomes and records since the last commit.
    private var uncommitted = Counts()
    private var uncommittedRecords = 0
    /// For the checkpoint: the records the store rejected, and the last record written.
    private var uncommittedRejects: [Checkpoint.WriteRejection] = []
    private var lastOrdinal = -1
    /// The store's rejections of the hand-over being written.
    private var writeRejected: [RejectedRecord] = []

    init(inputs: [RunInput], store: (any BatchWriting & RunCheckpoints)?, recorder: RunRecorder, rejectsFile: RejectsFile, rules: [String: VersionRules],
         batchSize: Int, resume: ResumePoint, handback: Handback<[PreparedRecord]>) {
        self.inputs = inputs
        self.store = store
        self.recorder = recorder
        self.rejectsFile = rejectsFile
        self.rules = rules
        self.batchSize = batchSize
        fingerprints = resume.fingerprints
        checkpoint = resume.checkpoint
        self.handback = handback
    }

    /// Writes what the key stage hands on, until the end.
    func run(from checked: BoundedChannel<CheckedItem>) {
        defer { rejectsFile.close() }
        while true {
            switch checked.take() {
            case .end:
                commit()
                return
            case .inputDone(let done, let bytes):
                commit()
                lastOrdinal = -1
                recorder.finished(input: done, bytes: bytes)
            case .records(let from, var records, let rejected, let madeBy):
                input = from
                handback = madeBy
                while !records.isEmpty {
                    // A hand-over is written as one window, unless it crosses a batch boundary:
                    // commits fall exactly on it.
                    let room = batchSize - uncommittedRecords
                    var window: [PreparedRecord] = []
                    if records.count <= room {
                        swap(&window, &records)
                    } else {
                        window = Array(records[..<room])
                        records.removeFirst(room)
                    }
                    let full = uncommittedRecords + window.count >= batchSize
                    apply(window)
                    if full { commit() }
                }
                writeRejects(rejected)
            }
        }
    }

    /// Writes one window of records of `input` (durable at the next commit).
    private func apply(_ window: [PreparedRecord]) {
        defer { handback.put(window) }
        guard !window.isEmpty else { return }
        guard let store else {
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
            uncommitted = uncommitted + count(outcomes, of: window)
            takeStoreCounts(of: entity)
            if checkpoint != nil { uncommittedRejects += checkpointRejections(outcomes, of: window) }
            uncommittedRecords += window.count
        } catch {
            recorder.abort("the store failed: \(error)")
            takeStoreCounts(of: entity)
            loseUncommitted()
            recorder.update(input: input) { $0.rolledBack += window.count }
        }
    }

    /// The store's retries and consumed capacity since the last write, counted with it.
    private func takeStoreCounts(of entity: Entity) {
        guard let store else { return }
        uncommitted.retries += store.takeRetries(of: entity)
        if let units = store.takeConsumedCapacity(of: entity) { uncommitted.add(units) }
    }

    /// Makes what was written durable, with the checkpoint, and counts it.
    private func commit() {
        guard let store, uncommittedRecords > 0 else { return }
        do {
            if var next = checkpoint {
                let path = inputs[input].absolutePath
                let done = (next.state(of: path)?.written ?? Counts()) + uncommitted
                next.inputs.removeAll { $0.path == path }
                next.inputs.append(.init(path: path, fingerprint: fingerprints[input], nextRecord: lastOrdinal + 1, written: done))
                try store.saveCheckpoint(next, adding: uncommittedRejects)
                try store.commit()
                checkpoint = next
            } else {
                try store.commit()
            }
            recorder.update(input: input) { [uncommitted] in $0 = $0 + uncommitted }
            resetUncommitted()
        } catch {
            recorder.abort("the store failed: \(error)")
            loseUncommitted()
        }
    }

    /// What was written since the last commit is lost (the store failed).
    private func loseUncommitted() {
        recorder.update(input: input) { [uncommitted] in $0 = $0 + uncommitted.lost() }
        resetUncommitted()
    }

    private func resetUncommitted() {
        uncommitted = Counts()
        uncommittedRecords = 0
        uncommittedRejects = []
    }

    /// Counts outcomes (to be applied at commit); rejections are counted at once.
    private func count(_ outcomes: [WriteOutcome], of records: [PreparedRecord]) -> Counts {
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
                recorder.reject(input: input, line: record.line, key: record.values[keyIndex], rejection)
                writeRejected.append(RejectedRecord(ordinal: record.ordinal, line: record.line, offset: record.byteOffset,
                                                    key: record.values[keyIndex], raw: record.raw, rejection: rejection))
                continue  // the recorder counts the rejection and its conflict
            }
            if outcome.conflict { counts.conflicts += 1 }
        }
        return counts
    }

    /// The records the store rejected, for the checkpoint (the recorder has counted them).
    private func checkpointRejections(_ outcomes: [WriteOutcome], of records: [PreparedRecord]) -> [Checkpoint.WriteRejection] {
        // By index: a record is only read when it was rejected (copying each one costs retains).
        outcomes.indices.compactMap { index in
            guard case .rejected(let rejection) = outcomes[index].result else { return nil }
            return .init(path: inputs[input].absolutePath, record: records[index].ordinal, reason: rejection.reason,
                         field: rejection.field, message: rejection.message)
        }
    }

    /// Lists a hand-over's rejections, the key stage's and the store's, in input order.
    private func writeRejects(_ rejected: [RejectedRecord]) {
        let input = inputs[input]
        var fromKeys = 0, fromStore = 0
        while fromKeys < rejected.count || fromStore < writeRejected.count {
            let storeFirst = fromKeys == rejected.count
                || (fromStore < writeRejected.count && writeRejected[fromStore].ordinal < rejected[fromKeys].ordinal)
            let record = storeFirst ? writeRejected[fromStore] : rejected[fromKeys]
            if storeFirst { fromStore += 1 } else { fromKeys += 1 }
            rejectsFile.append(record, source: input.path, entity: input.entity.name)
        }
        writeRejected.removeAll(keepingCapacity: true)
    }
}
