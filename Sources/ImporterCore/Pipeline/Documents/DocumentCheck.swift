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

    /// What the checks of a source's nodes need, looked up once for its chunks (by node).
    private struct Nodes {
        let inputs: [Int]
        let entities: [Entity]
        let references: [[KeyStage.Reference]]
        /// Per node, the fingerprints of its records' lookups (`KeyStage.fingerprints`).
        let fingerprints: [[UInt64]]
        let policy: DocumentPolicy
        /// Per node, the records the interrupted run this one resumes wrote (`ResumePoint`).
        let skipBefore: [Int]
        let keepsKeys: [Bool]
        /// Whether a record that passed needs no more than to be kept: no key of it is kept
        /// for the delete phase, none was written before an interruption.
        let plain: Bool

        var indices: Range<Int> { inputs.indices }
    }

    /// Where one document is in the chunks: per node, its prepared records and its parse
    /// rejections.
    private struct Span {
        var records: [Range<Int>] = []
        var rejects: [Range<Int>] = []

        var recordCount: Int { records.reduce(0) { $0 + $1.count } }
        var hasParseRejects: Bool { rejects.contains { !$0.isEmpty } }
        /// The records read of the document, rejected ones included.
        var readCount: Int { records.indices.reduce(0) { $0 + records[$1].count + rejects[$1].count } }
    }

    // Per node: the next record and parse rejection to look at, and the records kept so far
    // (moved to the front of `chunks[node].records`).
    private var nextRecord: [Int] = [], nextReject: [Int] = [], kept: [Int] = []
    /// Per node, once a record was dropped, the positions of those kept (for their pointers).
    private var keptPositions: [[Int]?] = []
    /// Records read but not yet counted, per node: counted before any rejection, and at the end.
    private var pendingRead: [Int] = []
    /// What passed, per node.
    private var parts: [CheckedDocuments.Part] = []
    /// The verdicts of the document being checked, node by node (reused).
    private var verdicts: [Verdict] = []

    /// Checks the documents of `chunks` (one per input of the source) and hands on what passed.
    mutating func run(_ chunks: inout [ParsedChunk]) -> CheckedDocuments {
        let nodes = prepare(&chunks)
        let keys = DocumentKeys()
        var span = Span()
        for document in chunks[0].documentEnds.indices {
            if pastLimit && !stop { stop = stage.recorder.abortIfPastErrorLimit() }
            if stop { break }
            slice(document, of: chunks, into: &span)
            do { try stage.begin(keys, count: span.recordCount) } catch {
                abortKeyChecks(error)
                break
            }
            let problems = check(span, &chunks, nodes, keys: keys)
            let rootFailed: Bool =
                if span.records[0].isEmpty {
                    false
                } else if case .passed = verdicts[0] {
                    false
                } else {
                    true
                }
            let whole = !problems.isEmpty && (nodes.policy == .whole || rootFailed)
            if whole {
                stage.discard(keys)
            } else {
                do { try stage.accept(keys) } catch {
                    abortKeyChecks(error)
                    break
                }
            }
            if !problems.isEmpty || span.hasParseRejects || pastLimit || nodes.skipBefore.contains(where: { $0 > 0 }) {
                countRead()
            }
            // Every record passed, and stays where it is: none before it in its chunk was dropped.
            if !whole, problems.isEmpty, nodes.plain,
                nodes.indices.allSatisfy({
                    span.rejects[$0].isEmpty && keptPositions[$0] == nil && kept[$0] == span.records[$0].lowerBound
                })
            {
                for node in nodes.indices {
                    kept[node] = span.records[node].upperBound
                    parts[node].documentEnds.append(kept[node])
                }
            } else {
                settle(span, whole: whole, problems: problems, &chunks, nodes)
            }
            (stop, pastLimit) = stage.recorder.standing
        }
        countRead()
        return finish(&chunks, policy: nodes.policy)
    }

    /// Looks up what the checks of `chunks` need, numbers their records in their inputs, and
    /// readies the progress through them.
    private mutating func prepare(_ chunks: inout [ParsedChunk]) -> Nodes {
        let inputs = chunks.indices.map { root + $0 }
        let entities = inputs.map { stage.inputs[$0].entity }
        let references = inputs.map { stage.references(of: $0) }
        let skipBefore = inputs.map { stage.resume.skipBefore[$0] }
        let keepsKeys = inputs.map { stage.keepsLoaded($0) }
        let nodes = Nodes(
            inputs: inputs, entities: entities, references: references,
            fingerprints: chunks.indices.map {
                stage.fingerprints(of: chunks[$0].records, entity: entities[$0], references: references[$0])
            },
            policy: stage.inputs[root].document!.policy, skipBefore: skipBefore, keepsKeys: keepsKeys,
            plain: !keepsKeys.contains(true) && !skipBefore.contains { $0 > 0 })
        for node in chunks.indices {
            let base = ordinalBases[node]
            chunks[node].records.withUnsafeMutableBufferPointer { records in
                for position in records.indices { records[position].ordinal += base }
            }
        }
        parts = chunks.indices.map {
            CheckedDocuments.Part(
                input: inputs[$0], records: [], pointers: PointerTable(), rejected: [], documentEnds: [],
                handback: chunks[$0].handback)
        }
        (nextRecord, nextReject, kept) = (chunks.map { _ in 0 }, chunks.map { _ in 0 }, chunks.map { _ in 0 })
        keptPositions = chunks.map { _ in nil }
        pendingRead = chunks.map { _ in 0 }
        return nodes
    }

    /// Finds document `document`'s records and parse rejections in each node's chunk.
    private mutating func slice(_ document: Int, of chunks: [ParsedChunk], into span: inout Span) {
        span.records.removeAll(keepingCapacity: true)
        span.rejects.removeAll(keepingCapacity: true)
        for node in chunks.indices {
            let end = chunks[node].documentEnds[document] + ordinalBases[node]
            var record = nextRecord[node], reject = nextReject[node]
            chunks[node].records.withUnsafeBufferPointer { records in
                while record < records.count, records[record].ordinal < end { record += 1 }
            }
            while reject < chunks[node].rejects.count, chunks[node].rejects[reject].ordinal + ordinalBases[node] < end {
                reject += 1
            }
            span.records.append(nextRecord[node]..<record)
            span.rejects.append(nextReject[node]..<reject)
            (nextRecord[node], nextReject[node]) = (record, reject)
            pendingRead[node] += span.records[node].count + span.rejects[node].count
        }
    }

    /// Checks the document's records, node by node (the root's first), into `verdicts`, and
    /// returns the problems found, each at its JSON pointer. An element under a rejected one is
    /// rejected with it, unchecked.
    private mutating func check(_ span: Span, _ chunks: inout [ParsedChunk], _ nodes: Nodes, keys: DocumentKeys)
        -> [DocumentProblem]
    {
        verdicts.removeAll(keepingCapacity: true)
        var problems: [DocumentProblem] = []
        // The pointers of the elements rejected so far: the elements under them go with them.
        var rejectedPointers: [String] = []
        for node in nodes.indices {
            // Bound once per node, not read from the arrays for each record (a copy each).
            let entity = nodes.entities[node], references = nodes.references[node], prints = nodes.fingerprints[node]
            let input = nodes.inputs[node], stride = references.count + 1
            // The node's records held apart while they are checked: each check changes one
            // in place, and one array is made unique once, not two for every record.
            var records: [PreparedRecord] = []
            swap(&records, &chunks[node].records)
            defer { swap(&records, &chunks[node].records) }
            for position in span.records[node] {
                let ahead = (position + Self.lookahead) * stride
                if ahead < prints.count { stage.prefetch(prints[ahead..<ahead + stride]) }
                // The pointer is read only for a rejection, or to find one under a rejected element.
                var verdict = Verdict.passed
                if !rejectedPointers.isEmpty, case let pointer = chunks[node].pointers[position],
                    rejectedPointers.contains(where: { pointer.hasPrefix($0 + "/") })
                {
                    verdict = .withHolder(.withHolder(of: problems.last?.rejection, at: pointer))
                } else if let rejection = stage.check(
                    &records[position], entity: entity, references: references,
                    fingerprints: prints[position * stride..<(position + 1) * stride],
                    at: RecordLocation(inputIndex: input, line: records[position].line), document: keys)
                {
                    verdict = .failed(rejection)
                    problems.append(rejection.problem(at: chunks[node].pointers[position]))
                }
                if case .passed = verdict {} else { rejectedPointers.append(chunks[node].pointers[position]) }
                verdicts.append(verdict)
            }
        }
        return problems
    }

    /// Applies the verdicts of a document that did not pass whole in place: its rejected records
    /// (and, rejected `whole`, all of them: its root listed with every problem) are counted and
    /// kept for rejects.ndjson, the others kept (or skipped when the interrupted run wrote them).
    private mutating func settle(
        _ span: Span, whole rejectedWhole: Bool, problems: [DocumentProblem], _ chunks: inout [ParsedChunk],
        _ nodes: Nodes
    ) {
        // Rejected whole: its root's rejection, listed with every problem, and its other records'.
        // Its root is always among its prepared records: a root the parse stage rejected took
        // every record of its document with it.
        var whole: (root: Rejection, others: Rejection)?
        if rejectedWhole {
            let root = chunks[0].records[span.records[0].lowerBound]
            whole = (
                .wholeDocument(records: span.readCount, problems: problems),
                .withDocument(of: problems[0].rejection, line: root.line, offset: root.byteOffset)
            )
        }
        var verdict = 0
        for node in nodes.indices {
            var rejected: [RejectedRecord] = chunks[node].rejects[span.rejects[node]].map { parsed in
                RejectedRecord(
                    ordinal: parsed.ordinal + ordinalBases[node], line: parsed.line, offset: parsed.byteOffset,
                    key: parsed.key, raw: parsed.raw, rejection: parsed.rejection, listed: parsed.listed)
            }
            let mixed = !rejected.isEmpty
            for position in span.records[node] {
                defer { verdict += 1 }
                if let whole {
                    let isRoot = node == 0 && position == span.records[0].lowerBound
                    reject(
                        position, of: node, in: chunks, nodes, isRoot ? whole.root : whole.others, into: &rejected,
                        raw: isRoot ? .excerpt : .none)
                    continue
                }
                switch verdicts[verdict] {
                case .failed(let rejection):
                    reject(
                        position, of: node, in: chunks, nodes, rejection.located(at: chunks[node].pointers[position]),
                        into: &rejected)
                case .withHolder(let rejection):
                    reject(position, of: node, in: chunks, nodes, rejection, into: &rejected, raw: .none)
                case .passed:
                    keep(position, of: node, &chunks, nodes, into: &rejected)
                }
            }
            if mixed { rejected.sort { $0.ordinal < $1.ordinal } }
            for record in rejected { stage.reject(record, input: nodes.inputs[node], into: &parts[node].rejected) }
            parts[node].documentEnds.append(kept[node])
        }
    }

    /// What of a rejected record's text rejects.ndjson shows.
    private enum ListedText {
        /// All of it: the record is listed.
        case whole
        /// Its first KiB: a document listed whole.
        case excerpt
        /// None: counted with its document or holder, not listed.
        case none
    }

    /// Adds the rejection of the record at `position` of `node` to `rejected`. By index:
    /// copying each record would retain its values and text.
    private func reject(
        _ position: Int, of node: Int, in chunks: [ParsedChunk], _ nodes: Nodes, _ rejection: Rejection,
        into rejected: inout [RejectedRecord], raw shown: ListedText = .whole
    ) {
        let record = chunks[node].records[position]
        let raw: ArraySlice<UInt8> =
            switch shown {
            case .whole: RecordText.of(record, in: stage.inputs)
            case .excerpt:
                SourceRecord.excerpt(of: RecordText.of(record, in: stage.inputs, limit: SourceRecord.excerptBytes))
            case .none: []
            }
        rejected.append(
            RejectedRecord(
                ordinal: record.ordinal, line: record.line, offset: record.byteOffset,
                key: nodes.entities[node].key(of: record.values), raw: raw, rejection: rejection,
                listed: shown != .none))
    }

    /// Keeps the record at `position` of `node`, which passed: moved to the front of its chunk's
    /// records, its key kept for the delete phase; one the interrupted run wrote is skipped (its
    /// outcome is in the checkpoint), a rejection of it listed again.
    private mutating func keep(
        _ position: Int, of node: Int, _ chunks: inout [ParsedChunk], _ nodes: Nodes,
        into rejected: inout [RejectedRecord]
    ) {
        let entity = nodes.entities[node]
        if nodes.keepsKeys[node] { stage.keep(chunks[node].records[position].key(at: entity.keyIndices), of: entity) }
        let ordinal = chunks[node].records[position].ordinal
        if ordinal < nodes.skipBefore[node] {
            if let done = stage.resume.doneRejections[nodes.inputs[node]][ordinal] {
                reject(
                    position, of: node, in: chunks, nodes, done.rejection, into: &rejected,
                    raw: done.listed ?? true ? .whole : .none)
                if nodes.keepsKeys[node] {
                    stage.keptKeyWasRejected(chunks[node].records[position].key(at: entity.keyIndices), of: entity)
                }
            }
            return
        }
        if keptPositions[node] != nil {
            keptPositions[node]!.append(position)
        } else if kept[node] != position {
            keptPositions[node] = Array(0..<kept[node]) + [position]
        }
        chunks[node].records.swapAt(kept[node], position)
        kept[node] += 1
    }

    /// Counts the records read and not yet counted.
    private mutating func countRead() {
        for node in pendingRead.indices where pendingRead[node] > 0 {
            stage.recorder.read(input: root + node, count: pendingRead[node])
            pendingRead[node] = 0
        }
    }

    private mutating func abortKeyChecks(_ error: any Error) {
        stage.recorder.abort(AbortReason(.input, "the key checks failed: \(error)"))
        stop = true
    }

    /// What passed of `chunks`: each node's kept records, with their pointers.
    private mutating func finish(_ chunks: inout [ParsedChunk], policy: DocumentPolicy) -> CheckedDocuments {
        for node in chunks.indices {
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
