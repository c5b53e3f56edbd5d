/// The version-and-write stage: applies records a hand-over at a time (the store applies the
/// version rules), commits every `batchSize` records (between documents, for a document
/// source) and at the end of each input, counts outcomes once they are committed, saves the
/// checkpoint with every commit, and writes rejects.ndjson in input order. Runs on a thread
/// of its own, which owns it.
final class WriteStage {
    private let inputs: [RunInput]
    /// Nil in a dry run: every valid record counts as inserted.
    private let store: (any BatchWriting & RunCheckpoints)?
    private let recorder: RunRecorder
    private let rejectsFile: RejectsFile
    private let rules: [String: VersionRules]
    private let batchSize: Int
    /// The store, when the next window is handed to it before the last one's outcomes are
    /// taken (a store that sends its writes over the network).
    private let overlapped: (any OverlappedWriting)?
    /// The store, when it counts its retries and capacity for the report.
    private let counting: (any RequestCounting)?
    private var overlapsWrites: Bool { overlapped != nil }
    private let fingerprints: [InputFingerprint]
    /// The checkpoint saved with every commit; nil when the run keeps none.
    private(set) var checkpoint: Checkpoint?

    /// Windows started and not yet finished, oldest first (`overlapsWrites`).
    private var inFlight: [StartedWindow] = []
    /// Records handed to the store since the last commit point.
    private var startedInBatch = 0
    /// What each input wrote since the last commit (the inputs of a document source share
    /// batches).
    private var uncommitted: [Int: Uncommitted] = [:]
    /// For the checkpoint: the last record of each input written.
    private var lastOrdinal: [Int: Int] = [:]
    /// A write failed: the run aborted, and what was sent after it is not counted as written.
    private var storeFailed = false
    /// The store's rejections of the hand-over being written.
    private var writeRejected: [RejectedRecord] = []
    /// Reads stored items for `DocumentWriteProbe` (nil in a dry run): the store's
    /// `BatchFetching`, else its reads one by one.
    private let fetchStored: ((_ keys: [Value], _ entity: Entity) throws -> [[Value]?])?
    /// Records of document sources rejected here: a parent whose children the
    /// replace phase must not touch (docs/documents.md#re-loading-a-document).
    private(set) var rejectedDocumentKeys = Set<EntityKey>()
    /// The entities the store loads in bulk: their staged rows are undone only whole, so a
    /// document's records of them are written after the others (`writeWhole`).
    private let bulkEntities: Set<String>

    init(
        inputs: [RunInput], store: (any BatchWriting & RunCheckpoints)?, recorder: RunRecorder,
        rejectsFile: RejectsFile, rules: [String: VersionRules],
        batchSize: Int, resume: ResumePoint, bulkEntities: Set<String> = []
    ) {
        self.bulkEntities = bulkEntities
        self.inputs = inputs
        self.store = store
        self.recorder = recorder
        self.rejectsFile = rejectsFile
        self.rules = rules
        self.batchSize = batchSize
        overlapped = store as? any OverlappedWriting
        counting = store as? any RequestCounting
        if let batch = store as? any BatchFetching {
            fetchStored = { keys, entity in try batch.fetch(keys, of: entity) }
        } else if let reader = store as? any ItemQuerying {
            fetchStored = { keys, entity in try keys.map { try reader.fetch($0, of: entity) } }
        } else {
            fetchStored = nil
        }
        fingerprints = resume.fingerprints
        checkpoint = resume.checkpoint
    }

    /// Writes what the key stage hands on, until the end.
    func run(from checked: BoundedChannel<CheckedItem>) {
        defer { rejectsFile.close() }
        while true {
            switch checked.take() {
            case .end:
                finishInFlight()
                commit()
                return
            case .inputDone(let done, let bytes):
                finishInFlight()
                commit()
                startedInBatch = 0
                lastOrdinal[done] = nil
                recorder.finished(input: done, bytes: bytes)
            case .documents(var documents):
                write(&documents)
            case .records(let input, var records, let rejected, let madeBy):
                repeat {
                    // A hand-over is written as one window, unless it crosses a batch boundary:
                    // commits fall exactly on it.
                    let room = batchSize - startedInBatch
                    var window: [PreparedRecord] = []
                    if records.count <= room {
                        swap(&window, &records)
                    } else {
                        window = Array(records[..<room])
                        records.removeFirst(room)
                    }
                    startedInBatch += window.count
                    let endsBatch = startedInBatch >= batchSize
                    if endsBatch { startedInBatch = 0 }
                    // The hand-over's rejections are listed once its last window is finished.
                    let started = start(
                        window, of: input, endsBatch: endsBatch, handback: madeBy,
                        rejected: records.isEmpty ? rejected : nil)
                    if overlapsWrites {
                        overlap(started)
                    } else {
                        finish(started)
                    }
                } while !records.isEmpty
            }
        }
    }

    /// Writes whole documents, as many at a time as fill the batch: a window of each input's
    /// records of them, the root's first, so that commits, and with them checkpoints, fall
    /// between documents, never inside one (docs/documents.md). A store that rolls back writes
    /// them all or nothing (`writeWhole`).
    /// In place: the stage's alone, its groups' records are moved, not copied.
    private func write(_ checked: inout CheckedDocuments) {
        let documents = DocumentWindows(taking: &checked)
        let parts = documents.parts, count = documents.documentCount
        let probe = fetchStored.map { fetch in
            DocumentWriteProbe(
                fetch: fetch, entities: parts.map { inputs[$0.input].entity },
                rules: parts.map { rules[inputs[$0.input].entity.name]! })
        }
        // Per part, the records excluded before or while writing, listed with the part's other rejections.
        var probed: [[RejectedRecord]] = parts.map { _ in [] }
        // A store that writes a group as one request (DynamoDB's TransactWriteItems) takes as
        // many documents at a time as it holds.
        let groupLimit = store?.maximumGroupRecords.flatMap { $0 > 0 ? $0 : nil } ?? .max
        let stagesInBulk = parts.contains { bulkEntities.contains(inputs[$0.input].entity.name) }
        var first = 0
        repeat {
            let room = batchSize - startedInBatch
            var end = first, records = 0
            while end < count, records < room || end == first {
                let more = documents.recordCount(of: end)
                if end > first, records + more > groupLimit { break }
                records += more
                end += 1
            }
            startedInBatch += records
            let endsBatch = startedInBatch >= batchSize
            if endsBatch { startedInBatch = 0 }
            let slice = first..<end
            let whole = store.map { $0.maximumGroupRecords.map { records <= $0 } ?? true } ?? false
            // A group's version rules are decided by the store as it writes, and the group undone
            // if it rejects a record; they are probed first only where it cannot undo.
            let probing = !whole || stagesInBulk
            var failures = recorder.isAborted || !probing ? [] : probe?.failures(in: documents, slice: slice) ?? []
            if let store, !recorder.isAborted { failures += refusals(in: documents, slice: slice, by: store) }
            var exclusions = DocumentWriteProbe.exclusions(for: failures, in: documents)
            var written: [(window: [PreparedRecord], write: StartedWrite?)]?
            if let overlapped, !whole, !recorder.isAborted {
                written = writeParentsFirst(documents, slice: slice, on: overlapped, exclusions: &exclusions)
            } else if let store, !recorder.isAborted {
                written = writeWhole(documents, slice: slice, on: store, failures: &failures, exclusions: &exclusions)
            }
            for (index, part) in parts.enumerated() {
                let window =
                    written?[index].window
                    ?? Self.window(
                        of: part, at: documents.positions(of: slice, in: index), excluding: exclusions[index])
                if !exclusions[index].isEmpty { recordExclusions(exclusions[index], of: part, into: &probed[index]) }
                var rejected: [RejectedRecord]?
                if end == count {
                    rejected = checked.rejected[index]
                    if !probed[index].isEmpty {
                        rejected = (checked.rejected[index] + probed[index]).sorted { $0.ordinal < $1.ordinal }
                    }
                }
                let lastPart = index == parts.count - 1
                if let written {
                    finish(
                        StartedWindow(
                            input: part.input, records: window, write: written[index].write,
                            endsBatch: endsBatch && lastPart, handback: checked.handback, rejected: rejected))
                    continue
                }
                let started = start(
                    window, of: part.input, endsBatch: endsBatch && lastPart, handback: checked.handback,
                    rejected: rejected)
                if overlapsWrites {
                    overlap(started)
                } else {
                    finish(started)
                }
            }
            first = end
        } while first < count
    }

    /// Writes the windows of documents `slice` (but `exclusions`) together, as one group of the
    /// store (a savepoint of the batch's SQLite transaction, one DynamoDB TransactWriteItems).
    /// When the store refuses a record, the group is undone (or was never applied), the
    /// record's document (or its element with the elements under it, `documents: partial`) is
    /// added to `failures` and `exclusions`, and the rest is written again, until the store
    /// refuses nothing: no document is left half written (docs/documents.md#rejections). Per
    /// part, its window and its write (nil for an empty window); after a failure of the store,
    /// each part's write throws it.
    private func writeWhole(
        _ documents: DocumentWindows, slice: Range<Int>, on store: any BatchWriting,
        failures: inout [DocumentWriteProbe.Failure], exclusions: inout [[DocumentWriteProbe.Exclusion]]
    ) -> [(window: [PreparedRecord], write: StartedWrite?)] {
        var changedRounds = 0
        while true {
            let parts = documents.parts
            var written: [(window: [PreparedRecord], write: StartedWrite?)?] = parts.map { _ in nil }
            var refused: [DocumentWriteProbe.Failure] = []
            do {
                try store.writingGroups {
                    try writeGroup(documents, slice: slice, on: store, exclusions: exclusions, into: &written, &refused)
                }
            } catch let notApplied as GroupNotApplied {
                switch notApplied {
                case .changed:
                    // Another writer changed an item since it was read: read and decide again.
                    changedRounds += 1
                    guard changedRounds < Self.maximumGroupRounds else {
                        return failed(documents, slice: slice, exclusions: exclusions, written, notApplied)
                    }
                    continue
                case .refused(let entity, let key, let message):
                    guard let position = Self.position(of: key, entity: entity, documents, slice, inputs: inputs)
                    else { return failed(documents, slice: slice, exclusions: exclusions, written, notApplied) }
                    refused = [
                        (
                            position.part, position.position,
                            Rejection(stage: .write, reason: .constraint, "the store refused the item: \(message)")
                        )
                    ]
                case .refusedWhole where slice.count > 1:
                    // Which document it was is not said: each half on its own.
                    let middle = slice.lowerBound + slice.count / 2
                    let first = writeWhole(
                        documents, slice: slice.lowerBound..<middle, on: store, failures: &failures,
                        exclusions: &exclusions)
                    let second = writeWhole(
                        documents, slice: middle..<slice.upperBound, on: store, failures: &failures,
                        exclusions: &exclusions)
                    return zip(first, second).map { first, second in
                        guard first.write != nil || second.write != nil else {
                            return (first.window + second.window, nil)
                        }
                        return (
                            first.window + second.window,
                            StartedWrite { try (first.write?.outcomes() ?? []) + (second.write?.outcomes() ?? []) }
                        )
                    }
                case .refusedWhole(let message):
                    let part = parts.indices.first { !documents.positions(of: slice, in: $0).isEmpty } ?? 0
                    refused = [
                        (
                            part, documents.positions(of: slice, in: part).lowerBound,
                            Rejection(stage: .write, reason: .constraint, "the store refused the document: \(message)")
                        )
                    ]
                }
            } catch {
                return failed(documents, slice: slice, exclusions: exclusions, written, error)
            }
            guard !refused.isEmpty else { return written.map { $0! } }
            failures += refused
            exclusions = DocumentWriteProbe.exclusions(for: failures, in: documents)
        }
    }

    /// Times a group is read and written again because another writer changed an item of it.
    private static let maximumGroupRounds = 10

    /// The body of `writeWhole`'s group: each part's window of documents `slice` (but
    /// `exclusions`) into `written`, and the records the store rejected into `refused`.
    private func writeGroup(
        _ documents: DocumentWindows, slice: Range<Int>, on store: any BatchWriting,
        exclusions: [[DocumentWriteProbe.Exclusion]],
        into written: inout [(window: [PreparedRecord], write: StartedWrite?)?],
        _ refused: inout [DocumentWriteProbe.Failure]
    ) throws -> GroupCompletion {
        let parts = documents.parts
        // The bulk-loaded parts last: the store refuses none of them (their rules were
        // probed), and once their rows are staged, the group can no longer be undone.
        let order = parts.indices.filter { !bulkEntities.contains(inputs[parts[$0].input].entity.name) }
        let bulkParts = parts.indices.filter { bulkEntities.contains(inputs[parts[$0].input].entity.name) }
        for index in order + bulkParts {
            let positions = documents.positions(of: slice, in: index)
            let window = Self.window(of: parts[index], at: positions, excluding: exclusions[index])
            guard !window.isEmpty else {
                written[index] = (window, nil)
                continue
            }
            // Nothing staged once a refusal is known: it is undone.
            if !refused.isEmpty && bulkParts.contains(index) { break }
            let entity = inputs[parts[index].input].entity
            let outcomes = try store.write(window, of: entity, rules: rules[entity.name]!)
            written[index] = (window, StartedWrite { outcomes })
            guard outcomes.contains(where: \.isRejected) else { continue }
            let kept = Self.keptPositions(positions, excluding: exclusions[index])
            for (position, outcome) in zip(kept, outcomes) {
                if case .rejected(let rejection) = outcome.result { refused.append((index, position, rejection)) }
            }
        }
        return refused.isEmpty ? .keep : .undo
    }

    /// Per part, the window of documents `slice` (but `exclusions`) and a write that throws
    /// `error`: the store failed.
    private func failed(
        _ documents: DocumentWindows, slice: Range<Int>, exclusions: [[DocumentWriteProbe.Exclusion]],
        _ written: [(window: [PreparedRecord], write: StartedWrite?)?], _ error: any Error
    ) -> [(window: [PreparedRecord], write: StartedWrite?)] {
        documents.parts.indices.map { index in
            let window =
                written[index]?.window
                ?? Self.window(
                    of: documents.parts[index], at: documents.positions(of: slice, in: index),
                    excluding: exclusions[index])
            return (window, StartedWrite { throw error })
        }
    }

    /// Where the record of `entity` with `key` is among the records of documents `slice`.
    private static func position(
        of key: Value, entity: String, _ documents: DocumentWindows, _ slice: Range<Int>, inputs: [RunInput]
    ) -> (part: Int, position: Int)? {
        for (index, part) in documents.parts.enumerated() where inputs[part.input].entity.name == entity {
            let model = inputs[part.input].entity
            for position in documents.positions(of: slice, in: index)
            where model.key(of: part.records[position].values) == key {
                return (index, position)
            }
        }
        return nil
    }

    /// Writes the windows of documents `slice` (but `exclusions`) on a store that cannot roll
    /// back, a part at a time, the root's first: a part is sent once the parts before it (its
    /// parents) were acknowledged, and the elements under a record the store refused are not
    /// sent (they are added to `exclusions`), so that no child is stored without its parent.
    /// Per part, its window and its write (nil for an empty window, or one not sent after a
    /// failure of the store).
    private func writeParentsFirst(
        _ documents: DocumentWindows, slice: Range<Int>, on store: any OverlappedWriting,
        exclusions: inout [[DocumentWriteProbe.Exclusion]]
    ) -> [(window: [PreparedRecord], write: StartedWrite?)] {
        var written: [(window: [PreparedRecord], write: StartedWrite?)] = []
        // Per part, the positions of its window's records, and their outcomes (nil: not sent).
        var sent: [(positions: [Int], outcomes: Result<[WriteOutcome], any Error>?)] = []
        defer { notePartWritten(documents, slice: slice, sent) }
        var failed = false
        for (index, part) in documents.parts.enumerated() {
            let positions = documents.positions(of: slice, in: index)
            let window = Self.window(of: part, at: positions, excluding: exclusions[index])
            sent.append((Self.keptPositions(positions, excluding: exclusions[index]), nil))
            guard !window.isEmpty, !failed else {
                written.append((window, nil))
                continue
            }
            let entity = inputs[part.input].entity
            let outcomes = Result { try store.startWrite(window, of: entity, rules: rules[entity.name]!).outcomes() }
            written.append((window, StartedWrite { try outcomes.get() }))
            sent[index].outcomes = outcomes
            guard case .success(let results) = outcomes else {
                failed = true
                continue
            }
            guard index < documents.parts.count - 1, results.contains(where: \.isRejected) else { continue }
            var refused: [DocumentWriteProbe.Failure] = []
            for (position, outcome) in zip(Self.keptPositions(positions, excluding: exclusions[index]), results) {
                if case .rejected(let rejection) = outcome.result { refused.append((index, position, rejection)) }
            }
            let under = DocumentWriteProbe.exclusions(for: refused, in: documents, policy: .partial)
            for later in index + 1..<documents.parts.count where !under[later].isEmpty {
                exclusions[later] = DocumentWriteProbe.merged(exclusions[later], under[later])
            }
        }
        return written
    }

    /// Notes the documents of `slice` that `writeParentsFirst` left part-written: some of their
    /// records written, and others refused or under a refused one (`documents: whole`), or not
    /// sent after a failure of the store.
    private func notePartWritten(
        _ documents: DocumentWindows, slice: Range<Int>,
        _ sent: [(positions: [Int], outcomes: Result<[WriteOutcome], any Error>?)]
    ) {
        var written: [Int: Int] = [:], refused: [Int: Int] = [:], notSent: [Int: Int] = [:]
        for (part, window) in sent.enumerated() {
            let all = documents.positions(of: slice, in: part)
            let results = try? window.outcomes?.get()
            // Everything sent was written: nothing to note.
            if let results, window.positions.count == all.count, !results.contains(where: \.isRejected) {
                for position in all { written[documents.document(at: position, in: part), default: 0] += 1 }
                continue
            }
            var kept = window.positions.makeIterator(), next = kept.next(), result = 0
            for position in all {
                let document = documents.document(at: position, in: part)
                guard position == next else {
                    refused[document, default: 0] += 1  // excluded: under a refused record
                    continue
                }
                next = kept.next()
                defer { result += 1 }
                guard let results else {
                    notSent[document, default: 0] += 1
                    continue
                }
                if results[result].isRejected {
                    refused[document, default: 0] += 1
                } else {
                    written[document, default: 0] += 1
                }
            }
        }
        for document in slice {
            let done = written[document] ?? 0, missing = (refused[document] ?? 0) + (notSent[document] ?? 0)
            guard done > 0, documents.policy == .whole ? missing > 0 : notSent[document] != nil else { continue }
            guard
                let part = documents.parts.indices.first(where: {
                    !documents.positions(of: document..<document + 1, in: $0).isEmpty
                })
            else { continue }
            let root = documents.parts[part].records[
                documents.positions(of: document..<document + 1, in: part).lowerBound]
            let input = documents.parts[part].input
            recorder.partWritten(
                input: input, line: root.line, key: inputs[input].entity.key(of: root.values), written: done,
                notWritten: missing)
        }
    }

    /// What the store would refuse of the records of documents `slice` whatever it holds.
    private func refusals(in documents: DocumentWindows, slice: Range<Int>, by store: any BatchWriting)
        -> [DocumentWriteProbe.Failure]
    {
        documents.parts.indices.flatMap { index in
            let part = documents.parts[index]
            return store.refusals(
                of: part.records[documents.positions(of: slice, in: index)], entity: inputs[part.input].entity
            ).map { (index, $0.position, $0.rejection) }
        }
    }

    /// The records of `part` at `positions` but those `excluded` (in position order).
    private static func window(
        of part: DocumentWindows.Part, at positions: Range<Int>, excluding excluded: [DocumentWriteProbe.Exclusion]
    ) -> [PreparedRecord] {
        guard !excluded.isEmpty else {
            return positions == part.records.indices ? part.records : Array(part.records[positions])
        }
        var window: [PreparedRecord] = []
        window.reserveCapacity(positions.count - excluded.count)
        for position in keptPositions(positions, excluding: excluded) { window.append(part.records[position]) }
        return window
    }

    /// `positions` but those `excluded` (in position order).
    private static func keptPositions(_ positions: Range<Int>, excluding excluded: [DocumentWriteProbe.Exclusion])
        -> [Int]
    {
        var kept: [Int] = []
        kept.reserveCapacity(positions.count - excluded.count)
        var next = excluded.startIndex
        for position in positions {
            if next < excluded.endIndex, excluded[next].position == position {
                next += 1
            } else {
                kept.append(position)
            }
        }
        return kept
    }

    /// Counts the records of `part` that are `excluded` as rejected, keeps them for the
    /// checkpoint and adds them to `rejected` for rejects.ndjson.
    private func recordExclusions(
        _ excluded: [DocumentWriteProbe.Exclusion], of part: DocumentWindows.Part,
        into rejected: inout [RejectedRecord]
    ) {
        let entity = inputs[part.input].entity
        for exclusion in excluded {
            let record = part.records[exclusion.position]
            let key = entity.key(of: record.values)
            recorder.reject(
                input: part.input, line: record.line, key: key, exclusion.rejection, listed: exclusion.listed)
            rejectedDocumentKeys.insert(EntityKey(entity, key))
            var raw: ArraySlice<UInt8> = []
            if exclusion.listed {
                raw =
                    exclusion.rejection.problems.isEmpty
                    ? RecordText.of(record, in: inputs)
                    : SourceRecord.excerpt(of: RecordText.of(record, in: inputs, limit: SourceRecord.excerptBytes))
            }
            rejected.append(
                RejectedRecord(
                    ordinal: record.ordinal, line: record.line, offset: record.byteOffset, key: key,
                    raw: raw, rejection: exclusion.rejection, listed: exclusion.listed))
            if checkpoint != nil {
                uncommitted[part.input, default: Uncommitted()].rejects.append(
                    .init(
                        path: inputs[part.input].checkpointName, record: record.ordinal, exclusion.rejection,
                        listed: exclusion.listed))
            }
        }
    }

    /// A window handed to the store, its outcomes not yet taken.
    private struct StartedWindow {
        let input: Int
        let records: [PreparedRecord]
        /// nil when nothing was sent: a dry run, an aborted run, an empty window.
        let write: StartedWrite?
        /// A commit follows it.
        let endsBatch: Bool
        let handback: Handback<[PreparedRecord]>
        /// The key stage's rejections of the hand-over, with the store's, once the window is
        /// finished; nil when a window of the same hand-over follows.
        let rejected: [RejectedRecord]?
    }

    /// Outcomes and records of an input since the last commit.
    private struct Uncommitted {
        var counts = Counts()
        var records = 0
        /// For the checkpoint: the records the store rejected.
        var rejects: [Checkpoint.WriteRejection] = []
    }

    /// Hands one window of records of `input` to the store (durable at the next commit).
    private func start(
        _ window: [PreparedRecord], of input: Int, endsBatch: Bool, handback: Handback<[PreparedRecord]>,
        rejected: [RejectedRecord]?
    ) -> StartedWindow {
        var write: StartedWrite?
        if let store, !window.isEmpty, !recorder.isAborted {
            let entity = inputs[input].entity, rules = rules[entity.name]!
            if let overlapped {
                write = overlapped.startWrite(window, of: entity, rules: rules)
            } else {
                let outcomes = Result { try store.write(window, of: entity, rules: rules) }
                write = StartedWrite { try outcomes.get() }
            }
        }
        return StartedWindow(
            input: input, records: window, write: write, endsBatch: endsBatch, handback: handback, rejected: rejected)
    }

    /// Takes a window's outcomes and counts them, then commits if it ends a batch.
    private func finish(_ window: StartedWindow) {
        takeOutcomes(of: window)
        window.handback.put(window.records)
        if let rejected = window.rejected { writeRejects(rejected, of: window.input) }
        if window.endsBatch { commit() }
    }

    /// Adds a started window to those in flight, then finishes the oldest ones as long as the
    /// windows after them hold a batch: while the stage waits for a window's outcomes, the
    /// store has at least that much more to send, however the windows were cut.
    private func overlap(_ window: StartedWindow) {
        inFlight.append(window)
        while inFlight.dropFirst().reduce(0, { $0 + $1.records.count }) >= batchSize {
            finish(inFlight.removeFirst())
        }
    }

    private func finishInFlight() {
        while !inFlight.isEmpty { finish(inFlight.removeFirst()) }
    }

    /// Counts a window's outcomes (committed with the next commit), once the store has them.
    private func takeOutcomes(of window: StartedWindow) {
        let records = window.records, input = window.input
        guard !records.isEmpty else { return }
        guard store != nil else {
            recorder.update(input: input) { $0.inserted += records.count }
            return
        }
        guard let write = window.write else {
            recorder.update(input: input) { $0.notWritten += records.count }  // not sent: the run had stopped
            return
        }
        let entity = inputs[input].entity
        do {
            let outcomes = try write.outcomes()
            let written = count(outcomes, of: records, input: input)
            uncommitted[input, default: Uncommitted()].counts =
                uncommitted[input, default: Uncommitted()].counts + written
            takeStoreCounts(of: entity, input: input)
            if checkpoint != nil {
                uncommitted[input]!.rejects += checkpointRejections(outcomes, of: records, input: input)
            }
            guard !storeFailed else {
                // Written after a window the store failed: no checkpoint may cover it with that
                // window missing, so it is lost with it (a resumed run writes both again).
                return loseUncommitted()
            }
            uncommitted[input]!.records += records.count
            // By index: a record copied out of the array would be retained and released.
            let last = lastOrdinal[input, default: -1]
            var newLast = last
            for index in records.indices where records[index].ordinal > newLast { newLast = records[index].ordinal }
            if newLast > last { lastOrdinal[input] = newLast }
        } catch let partial as PartialWriteError where !(store?.rollsBack ?? true) {
            // A store that cannot roll back: what it acknowledged is written, whatever follows.
            storeFailed = true
            recorder.abort(.store("the store failed", partial))
            takeStoreCounts(of: entity, input: input)
            var counts = Counts()
            var decided: [(outcome: WriteOutcome, record: PreparedRecord)] = []
            for (fate, record) in zip(partial.fates, records) {
                switch fate {
                case .decided(let outcome): decided.append((outcome, record))
                case .unknown: counts.unknown += 1
                case .notSent: counts.notWritten += 1
                }
            }
            counts = counts + count(decided.map(\.outcome), of: decided.map(\.record), input: input)
            uncommitted[input, default: Uncommitted()].counts =
                uncommitted[input, default: Uncommitted()].counts + counts
            loseUncommitted()  // it cannot roll back: what it acknowledged counts as written
        } catch {
            storeFailed = true
            recorder.abort(.store("the store failed", error))
            takeStoreCounts(of: entity, input: input)
            loseUncommitted()
            recorder.update(input: input) { [rollsBack = store?.rollsBack ?? true] in
                if rollsBack { $0.rolledBack += records.count } else { $0.unknown += records.count }
            }
        }
    }

    /// The store's retries and consumed capacity since the last write, counted with it.
    private func takeStoreCounts(of entity: Entity, input: Int) {
        guard let counting else { return }
        uncommitted[input, default: Uncommitted()].counts.retries += counting.takeRetries(of: entity)
        if let units = counting.takeConsumedCapacity(of: entity) { uncommitted[input]!.counts.add(units) }
    }

    /// Makes what was written durable, with the checkpoint, and counts it.
    private func commit() {
        guard let store, uncommitted.values.contains(where: { $0.records > 0 }) else { return }
        do {
            if var next = checkpoint {
                for (input, written) in uncommitted.sorted(by: { $0.key < $1.key }) where written.records > 0 {
                    let name = inputs[input].checkpointName
                    let done = (next.state(of: name)?.written ?? Counts()) + written.counts
                    next.inputs.removeAll { $0.path == name }
                    next.inputs.append(
                        .init(
                            path: name, fingerprint: fingerprints[input], nextRecord: lastOrdinal[input]! + 1,
                            written: done))
                }
                try store.saveCheckpoint(next, adding: uncommitted.keys.sorted().flatMap { uncommitted[$0]!.rejects })
                try store.commit()
                checkpoint = next
            } else {
                try store.commit()
            }
            for (input, written) in uncommitted { recorder.update(input: input) { $0 = $0 + written.counts } }
            uncommitted = [:]
        } catch {
            recorder.abort(.store("the store failed", error))
            loseUncommitted()
        }
    }

    /// The store failed: what was written since the last commit is rolled back, or, on a store
    /// that cannot roll back, stays written (and is counted so).
    private func loseUncommitted() {
        let rollsBack = store?.rollsBack ?? true
        for (input, written) in uncommitted {
            recorder.update(input: input) { $0 = $0 + (rollsBack ? written.counts.lost() : written.counts) }
        }
        uncommitted = [:]
    }

    /// Counts outcomes (to be applied at commit); rejections are counted at once.
    private func count(_ outcomes: [WriteOutcome], of records: [PreparedRecord], input: Int) -> Counts {
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
                if inputs[input].document != nil {
                    let entity = inputs[input].entity
                    rejectedDocumentKeys.insert(EntityKey(entity, entity.key(of: record.values)))
                }
                writeRejected.append(
                    RejectedRecord(
                        ordinal: record.ordinal, line: record.line, offset: record.byteOffset,
                        key: record.values[keyIndex], raw: RecordText.of(record, in: inputs), rejection: rejection))
                continue  // the recorder counts the rejection and its conflict
            }
            if outcome.conflict { counts.conflicts += 1 }
        }
        return counts
    }

    /// The records the store rejected, for the checkpoint (the recorder has counted them).
    private func checkpointRejections(_ outcomes: [WriteOutcome], of records: [PreparedRecord], input: Int)
        -> [Checkpoint.WriteRejection]
    {
        // By index: a record is only read when it was rejected (copying each one costs retains).
        outcomes.indices.compactMap { index in
            guard case .rejected(let rejection) = outcomes[index].result else { return nil }
            return .init(path: inputs[input].checkpointName, record: records[index].ordinal, rejection)
        }
    }

    /// Lists a hand-over's rejections, the key stage's and the store's, in input order.
    private func writeRejects(_ rejected: [RejectedRecord], of input: Int) {
        let input = inputs[input]
        var fromKeys = 0, fromStore = 0
        while fromKeys < rejected.count || fromStore < writeRejected.count {
            let storeFirst =
                fromKeys == rejected.count
                || (fromStore < writeRejected.count && writeRejected[fromStore].ordinal < rejected[fromKeys].ordinal)
            let record = storeFirst ? writeRejected[fromStore] : rejected[fromKeys]
            if storeFirst { fromStore += 1 } else { fromKeys += 1 }
            guard record.listed else { continue }
            rejectsFile.append(record, source: input.path, entity: input.entity.name)
        }
        writeRejected.removeAll(keepingCapacity: true)
    }
}
