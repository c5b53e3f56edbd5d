/// The key checks of consecutive whole documents (docs/documents.md#rejections). A document's
/// records are checked together, the root's first: a duplicate key or a reference that names
/// no parent rejects the whole document under `documents: whole`, and the element with the
/// elements under it under `partial`. Only a document that passed leaves its keys in the run's
/// ledger, so a rejected one is never a parent or a first occurrence.
struct DocumentCheck {
    let stage: KeyStage
    /// The run's input of the source's root; its child inputs follow it.
    let root: Int
    /// Per input of the source, the number in it of its chunk's first record.
    let ordinalBases: [Int]
    /// Set when the run aborted.
    private(set) var stop = false
    /// The run passed an error limit: the next document aborts it.
    private var pastLimit = false
    /// How many records ahead the key lookups are prefetched (as the flat checks do).
    private static let lookahead = 8

    init(stage: KeyStage, root: Int, ordinalBases: [Int]) {
        self.stage = stage
        self.root = root
        self.ordinalBases = ordinalBases
    }

    /// What a record of a document came to. Indirect: a rejection is rare and large, and a
    /// verdict is kept for every record of a document until its end.
    private indirect enum Verdict {
        case passed
        /// Rejected by its own check: listed.
        case failed(Rejection)
        /// Rejected with the element holding it (`partial`): counted only.
        case withHolder(Rejection)
    }

    /// Checks the documents of `chunks` (one per input of the source) and hands on what passed.
    mutating func run(_ chunks: inout [ParsedChunk]) -> CheckedDocuments {
        let nodes = chunks.indices
        let inputs = nodes.map { root + $0 }
        let entities = inputs.map { stage.inputs[$0].entity }
        let references = inputs.map { stage.references(of: $0) }
        let fingerprints = nodes.map {
            stage.fingerprints(of: chunks[$0].records, entity: entities[$0], references: references[$0])
        }
        let policy = stage.inputs[root].document!.policy
        let skipBefore = inputs.map { stage.resume.skipBefore[$0] }
        let keepsKeys = inputs.map { stage.keepsLoaded($0) }
        // Whether a record that passed needs no more than to be kept: no key of it is kept
        // for the delete phase, none was written before an interruption.
        let plain = !keepsKeys.contains(true) && !skipBefore.contains { $0 > 0 }
        for node in nodes {
            let base = ordinalBases[node]
            chunks[node].records.withUnsafeMutableBufferPointer { records in
                for position in records.indices { records[position].ordinal += base }
            }
        }
        var parts = nodes.map {
            CheckedDocuments.Part(
                input: inputs[$0], records: [], pointers: PointerTable(), rejected: [], documentEnds: [],
                handback: chunks[$0].handback)
        }
        // Per node: the next record and parse rejection to look at, and the records kept so far
        // (moved to the front of `chunks[node].records`).
        var nextRecord = nodes.map { _ in 0 }, nextReject = nodes.map { _ in 0 }, kept = nodes.map { _ in 0 }
        // Per node, once a record was dropped, the positions of those kept (for their pointers).
        var keptPositions: [[Int]?] = nodes.map { _ in nil }
        let keys = DocumentKeys()
        var verdicts: [Verdict] = []
        // The document's records and parse rejections in each node's chunk.
        var records: [Range<Int>] = [], rejects: [Range<Int>] = []
        // Records read but not yet counted, per node: counted before any rejection, and at the end.
        var pendingRead = nodes.map { _ in 0 }
        func countRead() {
            for node in nodes where pendingRead[node] > 0 {
                stage.recorder.read(input: inputs[node], count: pendingRead[node])
                pendingRead[node] = 0
            }
        }
        defer { countRead() }
        for document in chunks[0].documentEnds.indices {
            if pastLimit && !stop { stop = stage.recorder.abortIfPastErrorLimit() }
            if stop { break }
            records.removeAll(keepingCapacity: true)
            rejects.removeAll(keepingCapacity: true)
            for node in nodes {
                let end = chunks[node].documentEnds[document] + ordinalBases[node]
                var record = nextRecord[node], reject = nextReject[node]
                chunks[node].records.withUnsafeBufferPointer { records in
                    while record < records.count, records[record].ordinal < end { record += 1 }
                }
                while reject < chunks[node].rejects.count,
                    chunks[node].rejects[reject].ordinal + ordinalBases[node] < end
                {
                    reject += 1
                }
                records.append(nextRecord[node]..<record)
                rejects.append(nextReject[node]..<reject)
                (nextRecord[node], nextReject[node]) = (record, reject)
                pendingRead[node] += records[node].count + rejects[node].count
            }
            do { try stage.begin(keys, count: records.reduce(0) { $0 + $1.count }) } catch {
                stage.recorder.abort(AbortReason(.input, "the key checks failed: \(error)"))
                stop = true
                break
            }
            verdicts.removeAll(keepingCapacity: true)
            var problems: [DocumentProblem] = []
            // The pointers of the elements rejected so far: the elements under them go with them.
            var rejectedPointers: [String] = []
            for node in nodes {
                // Bound once per node, not read from the arrays for each record (a copy each).
                let entity = entities[node], nodeReferences = references[node], nodePrints = fingerprints[node]
                let input = inputs[node], stride = nodeReferences.count + 1
                // The node's records held apart while they are checked: each check changes one
                // in place, and one array is made unique once, not two for every record.
                var nodeRecords: [PreparedRecord] = []
                swap(&nodeRecords, &chunks[node].records)
                defer { swap(&nodeRecords, &chunks[node].records) }
                for position in records[node] {
                    let ahead = (position + Self.lookahead) * stride
                    if ahead < nodePrints.count { stage.prefetch(nodePrints[ahead..<ahead + stride]) }
                    let prints = nodePrints[position * stride..<(position + 1) * stride]
                    // The pointer is read only for a rejection, or to find one under a rejected element.
                    var verdict = Verdict.passed
                    if !rejectedPointers.isEmpty, case let pointer = chunks[node].pointers[position],
                        rejectedPointers.contains(where: { pointer.hasPrefix($0 + "/") })
                    {
                        verdict = .withHolder(.withHolder(of: problems.last?.rejection, at: pointer))
                    } else if let rejection = stage.check(
                        &nodeRecords[position], entity: entity, references: nodeReferences,
                        fingerprints: prints, at: RecordLocation(inputIndex: input, line: nodeRecords[position].line),
                        document: keys)
                    {
                        verdict = .failed(rejection)
                        problems.append(rejection.problem(at: chunks[node].pointers[position]))
                    }
                    if case .passed = verdict {} else { rejectedPointers.append(chunks[node].pointers[position]) }
                    verdicts.append(verdict)
                }
            }
            let rootFailed: Bool =
                if records[0].isEmpty {
                    false
                } else if case .passed = verdicts[0] {
                    false
                } else {
                    true
                }
            let whole = !problems.isEmpty && (policy == .whole || rootFailed)
            if whole {
                stage.discard(keys)
            } else {
                do { try stage.accept(keys) } catch {
                    stage.recorder.abort(AbortReason(.input, "the key checks failed: \(error)"))
                    stop = true
                    break
                }
            }
            if !problems.isEmpty || rejects.contains(where: { !$0.isEmpty }) || pastLimit
                || skipBefore.contains(where: { $0 > 0 })
            {
                countRead()
            }
            // The rejection of the records of a document rejected whole, but its root's. Its root
            // is always among its prepared records: a root the parse stage rejected took every
            // record of its document with it.
            var withDocument: Rejection?
            if whole {
                let root = chunks[0].records[records[0].lowerBound]
                withDocument = .withDocument(of: problems[0].rejection, line: root.line, offset: root.byteOffset)
            }
            // Every record passed, and stays where it is: none before it in its chunk was dropped.
            if !whole, problems.isEmpty, plain,
                nodes.allSatisfy({
                    rejects[$0].isEmpty && keptPositions[$0] == nil && kept[$0] == records[$0].lowerBound
                })
            {
                for node in nodes {
                    kept[node] = records[node].upperBound
                    parts[node].documentEnds.append(kept[node])
                }
                (stop, pastLimit) = stage.recorder.standing
                continue
            }
            var verdict = 0
            for node in nodes {
                let entity = entities[node]
                var rejected: [RejectedRecord] = chunks[node].rejects[rejects[node]].map { parsed in
                    RejectedRecord(
                        ordinal: parsed.ordinal + ordinalBases[node], line: parsed.line, offset: parsed.byteOffset,
                        key: parsed.key, raw: parsed.raw, rejection: parsed.rejection, listed: parsed.listed)
                }
                let mixed = !rejected.isEmpty
                for position in records[node] {
                    defer { verdict += 1 }
                    let ordinal = chunks[node].records[position].ordinal
                    // By index: copying each record would retain its values and text.
                    func reject(_ rejection: Rejection, raw: ArraySlice<UInt8>? = nil, listed: Bool = true) {
                        let record = chunks[node].records[position]
                        rejected.append(
                            RejectedRecord(
                                ordinal: record.ordinal, line: record.line, offset: record.byteOffset,
                                key: entity.key(of: record.values),
                                raw: raw ?? (listed ? RecordText.of(record, in: stage.inputs) : []),
                                rejection: rejection, listed: listed))
                    }
                    if whole {
                        if node == 0 && position == records[0].lowerBound {
                            let rejection = Rejection.wholeDocument(
                                records: nodes.reduce(0) { $0 + records[$1].count + rejects[$1].count },
                                problems: problems)
                            let text = RecordText.of(
                                chunks[node].records[position], in: stage.inputs, limit: SourceRecord.excerptBytes)
                            reject(rejection, raw: SourceRecord.excerpt(of: text))
                        } else {
                            reject(withDocument!, listed: false)
                        }
                        continue
                    }
                    switch verdicts[verdict] {
                    case .failed(let rejection):
                        reject(rejection.located(at: chunks[node].pointers[position]))
                        continue
                    case .withHolder(let rejection):
                        reject(rejection, listed: false)
                        continue
                    case .passed:
                        break
                    }
                    if keepsKeys[node] {
                        stage.keep(chunks[node].records[position].key(at: entity.keyIndices), of: entity)
                    }
                    // Written before the interruption: its outcome is in the checkpoint.
                    if ordinal < skipBefore[node] {
                        if let done = stage.resume.doneRejections[inputs[node]][ordinal] {
                            reject(done.rejection, listed: done.listed ?? true)
                            if keepsKeys[node] {
                                let key = chunks[node].records[position].key(at: entity.keyIndices)
                                stage.keptKeyWasRejected(key, of: entity)
                            }
                        }
                        continue
                    }
                    if keptPositions[node] != nil {
                        keptPositions[node]!.append(position)
                    } else if kept[node] != position {
                        keptPositions[node] = Array(0..<kept[node]) + [position]
                    }
                    chunks[node].records.swapAt(kept[node], position)
                    kept[node] += 1
                }
                if mixed { rejected.sort { $0.ordinal < $1.ordinal } }
                for record in rejected { stage.reject(record, input: inputs[node], into: &parts[node].rejected) }
                parts[node].documentEnds.append(kept[node])
            }
            (stop, pastLimit) = stage.recorder.standing
        }
        for node in nodes {
            chunks[node].records.removeLast(chunks[node].records.count - kept[node])
            swap(&parts[node].records, &chunks[node].records)
            if let positions = keptPositions[node] {
                parts[node].pointers = chunks[node].pointers.selecting(positions)
            } else if kept[node] < chunks[node].pointers.count {
                parts[node].pointers = chunks[node].pointers.selecting(Array(0..<kept[node]))
            } else {
                swap(&parts[node].pointers, &chunks[node].pointers)
            }
        }
        return CheckedDocuments(parts: parts, policy: policy)
    }

}
