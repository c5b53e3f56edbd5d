/// The key checks of a batch of whole documents (docs/documents.md#rejections), a group at a
/// time: its records are checked as any record is (`KeyStage.check`), the root's first. A
/// duplicate key or a reference that names no parent rejects the whole document under
/// `documents: whole` (or when it is the root's), and the element with the elements under it
/// under `partial`. Only a document that passed leaves its keys in the run's ledger, so a
/// rejected one is never a parent or a first occurrence.
struct GroupCheck {
    let stage: KeyStage
    /// The run's input of the source's root; its child inputs follow it.
    let root: Int
    /// Per node, the number in its input of the batch's first record.
    let ordinalBases: [Int]
    /// Set when the run aborted.
    private(set) var stop = false
    /// The run passed an error limit: the next document aborts it.
    private var pastLimit = false
    /// How many records ahead the key lookups are prefetched (as the flat checks do).
    private static let lookahead = 8

    // What the checks of each node need, looked up once for the batch.
    private let entities: [Entity]
    private let references: [[KeyStage.Reference]]
    private let ids: [KeyStage.FingerprintIDs]
    private let policy: DocumentPolicy
    /// Per node, the records the interrupted run this one resumes wrote (`ResumePoint`).
    private let skipBefore: [Int]
    /// Per node, whether the keys of its records that pass are kept for the delete phase.
    private let keepsKeys: [Bool]
    /// The keys of the document being checked that passed their checks, of nodes that keep them
    /// (reused): kept once the document passes.
    private var passedKeys: [(node: Int, key: Value)] = []
    /// Whether the run resumes an interrupted one that wrote some of these inputs' records.
    private let resumes: Bool

    /// Records read but not yet counted, per node: counted before any rejection, and at the end.
    private var pendingRead: [Int]
    /// The documents checked, what passed of each to be written.
    private var checked: [RecordGroup] = []
    /// Per node, the rejections.
    private var rejected: [[RejectedRecord]]
    /// What each member of the document being checked came to (reused).
    private var verdicts: [Verdict] = []

    /// What a member of a document came to. Indirect: a rejection is rare and large.
    private indirect enum Verdict {
        case passed
        /// Rejected by the read stage: in its group already.
        case rejectedWhenRead
        /// Rejected by its own check: listed.
        case failed(Rejection)
        /// Rejected with the element above it that failed for `cause` (`partial`): counted only.
        case withHolder(cause: Rejection)

        var rejects: Bool {
            switch self {
            case .passed, .rejectedWhenRead: false
            case .failed, .withHolder: true
            }
        }
    }

    init(stage: KeyStage, root: Int, ordinalBases: [Int]) {
        self.stage = stage
        self.root = root
        self.ordinalBases = ordinalBases
        let inputs = ordinalBases.indices.map { root + $0 }
        entities = inputs.map { stage.inputs[$0].entity }
        references = inputs.map { stage.references(of: $0) }
        ids = zip(entities, references).map {
            KeyStage.FingerprintIDs(entity: $0, references: $1, ledger: stage.ledger)
        }
        policy = stage.inputs[root].document!.policy
        skipBefore = inputs.map { stage.resume.skipBefore[$0] }
        keepsKeys = inputs.map { stage.keepsLoaded($0) }
        resumes = skipBefore.contains { $0 > 0 }
        pendingRead = inputs.map { _ in 0 }
        rejected = inputs.map { _ in [] }
    }

    /// Checks the documents of `batch` and hands on what passed. In place: the batch is the
    /// stage's alone, and its groups are changed, not copied.
    mutating func run(_ batch: inout DocumentBatch) -> CheckedDocuments {
        var groups: [RecordGroup] = []
        swap(&groups, &batch.groups)
        checked.reserveCapacity(groups.count)
        let keys = DocumentKeys()
        for index in groups.indices {
            if pastLimit && !stop { stop = stage.recorder.abortIfPastErrorLimit() }
            if stop { break }
            var group = RecordGroup(members: [], pointers: PointerTable())
            swap(&group, &groups[index])
            check(&group, keys: keys)
            if group.members.contains(where: \.outcome.isPrepared) { checked.append(group) }
            if !stop { (stop, pastLimit) = stage.recorder.standing }
        }
        countRead()
        return CheckedDocuments(
            root: root, groups: checked, rejected: rejected, policy: policy, handback: batch.handback)
    }

    /// Checks one document: what does not pass is counted and settled.
    private mutating func check(_ group: inout RecordGroup, keys: DocumentKeys) {
        // The prepared records, held apart while they are checked in place (moved, not copied),
        // and the member each one is.
        var records: [PreparedRecord] = [], places: [Int] = []
        for index in group.members.indices {
            guard let record = group.members[index].takeRecord() else { continue }
            records.append(record)
            places.append(index)
        }
        do { try stage.begin(keys, count: records.count) } catch {
            putBack(&records, at: places, into: &group)
            return abortKeyChecks(error)
        }
        let problems = checkMembers(&group, &records, at: places, keys: keys)
        putBack(&records, at: places, into: &group)
        let rootFailed = if case .failed = verdicts[0] { true } else { false }
        let whole = !problems.isEmpty && (policy == .whole || rootFailed)
        if whole {
            stage.discard(keys)
        } else {
            do { try stage.accept(keys) } catch { return abortKeyChecks(error) }
            for (node, key) in passedKeys { stage.keep(key, of: entities[node]) }
        }
        let readRejected = places.count < group.members.count
        if !problems.isEmpty || readRejected || pastLimit || resumes { countRead() }
        // Every record passed and stays as it is.
        guard !problems.isEmpty || readRejected || resumes else { return }
        settle(&group, whole: whole, problems: problems)
    }

    /// Puts `records` back into the members at `places`, leaving `records` empty: moved, not copied.
    private func putBack(_ records: inout [PreparedRecord], at places: [Int], into group: inout RecordGroup) {
        for place in places.reversed() { group.members[place].setRecord(records.removeLast()) }
    }

    /// Numbers the members of `group` in their inputs and checks the prepared ones (`records`,
    /// in order), into `verdicts`; returns the problems found, each at its JSON pointer. A member
    /// under a rejected one is rejected with it, unchecked.
    private mutating func checkMembers(
        _ group: inout RecordGroup, _ records: inout [PreparedRecord], at places: [Int], keys: DocumentKeys
    ) -> [DocumentProblem] {
        verdicts.removeAll(keepingCapacity: true)
        passedKeys.removeAll(keepingCapacity: true)
        var problems: [DocumentProblem] = []
        let fingerprints = fingerprints(of: records, at: places, in: group)
        var next = 0, position = 0
        for index in group.members.indices {
            let node = group.members[index].node
            pendingRead[node] += 1
            // Rejected when read; else prepared, its record in `records`.
            if case .rejected(var rejected) = group.members[index].outcome {
                rejected.ordinal += ordinalBases[node]
                group.members[index].outcome = .rejected(rejected)
                verdicts.append(.rejectedWhenRead)
                continue
            }
            defer { position += 1 }
            records[position].ordinal += ordinalBases[node]
            let stride = references[node].count + 1, first = next
            next += stride
            let ahead = first + Self.lookahead * stride
            if ahead + stride <= fingerprints.count { stage.prefetch(fingerprints[ahead..<ahead + stride]) }
            var verdict = Verdict.passed
            if let holder = group.members[index].holder, verdicts[holder].rejects {
                verdict = .withHolder(cause: cause(of: verdicts[holder]))
            } else if let rejection = stage.check(
                &records[position], entity: entities[node], references: references[node],
                fingerprints: fingerprints[first..<next],
                at: RecordLocation(inputIndex: root + node, line: records[position].line), document: keys)
            {
                verdict = .failed(rejection)
                problems.append(rejection.problem(at: group.pointer(of: index)))
            } else if keepsKeys[node] {
                passedKeys.append((node, records[position].key(at: entities[node].keyIndices)))
            }
            verdicts.append(verdict)
        }
        return problems
    }

    /// The fingerprints the checks of `records`, the members of `group` at `places`, look up
    /// (`KeyStage.fingerprints`).
    private func fingerprints(of records: [PreparedRecord], at places: [Int], in group: RecordGroup) -> [UInt64] {
        var fingerprints: [UInt64] = []
        for position in records.indices {
            let node = group.members[places[position]].node
            stage.appendFingerprints(
                of: records, at: position, entity: entities[node], references: references[node], ids[node],
                to: &fingerprints)
        }
        return fingerprints
    }

    private func cause(of verdict: Verdict) -> Rejection {
        switch verdict {
        case .failed(let rejection), .withHolder(let rejection): rejection
        case .passed, .rejectedWhenRead: preconditionFailure("not a rejection")
        }
    }

    /// Applies the verdicts of a document that did not simply pass: its rejected records (and,
    /// rejected `whole`, all of them: its root listed with every problem) are counted, kept for
    /// rejects.ndjson and settled, the others kept (or settled when the interrupted run wrote them).
    private mutating func settle(_ group: inout RecordGroup, whole: Bool, problems: [DocumentProblem]) {
        // Rejected whole, its root is prepared: a root the read stage rejected took its document with it.
        var withDocument: Rejection?
        if whole, let root = group.members[0].record {
            withDocument = .withDocument(of: problems[0].rejection, line: root.line, offset: root.byteOffset)
        }
        for index in group.members.indices {
            let node = group.members[index].node
            switch verdicts[index] {
            case .rejectedWhenRead:
                guard case .rejected(let parsed) = group.members[index].outcome else { continue }
                group.members[index].outcome = .settled
                stage.reject(
                    RejectedRecord(
                        ordinal: parsed.ordinal, line: parsed.line, offset: parsed.byteOffset, key: parsed.key,
                        raw: parsed.raw, rejection: parsed.rejection, listed: parsed.listed),
                    input: root + node, into: &rejected[node])
            case _ where whole:
                if index == 0 {
                    reject(&group, index, .wholeDocument(records: group.members.count, problems: problems), .excerpt)
                } else if let withDocument {
                    reject(&group, index, withDocument, .none)
                }
            case .failed(let rejection):
                reject(&group, index, rejection.located(at: group.pointer(of: index)), .whole)
            case .withHolder(let cause):
                reject(&group, index, .withHolder(of: cause, at: group.pointer(of: index)), .none)
            case .passed:
                keep(&group, index)
            }
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

    /// Counts the rejection of member `index`, keeps it for rejects.ndjson and settles it.
    private mutating func reject(
        _ group: inout RecordGroup, _ index: Int, _ rejection: Rejection, _ shown: ListedText
    ) {
        let node = group.members[index].node
        guard let record = group.members[index].takeRecord() else { return }
        let raw: ArraySlice<UInt8> =
            switch shown {
            case .whole: RecordText.of(record, in: stage.inputs)
            case .excerpt:
                SourceRecord.excerpt(of: RecordText.of(record, in: stage.inputs, limit: SourceRecord.excerptBytes))
            case .none: []
            }
        stage.reject(
            RejectedRecord(
                ordinal: record.ordinal, line: record.line, offset: record.byteOffset,
                key: entities[node].key(of: record.values), raw: raw, rejection: rejection, listed: shown != .none),
            input: root + node, into: &rejected[node])
    }

    /// Keeps member `index`, which passed (its key was kept for the delete phase); one the
    /// interrupted run wrote is settled (its outcome is in the checkpoint), a rejection of it
    /// listed again.
    private mutating func keep(_ group: inout RecordGroup, _ index: Int) {
        let node = group.members[index].node, entity = entities[node]
        guard let ordinal = group.members[index].record?.ordinal, ordinal < skipBefore[node] else { return }
        if let done = stage.resume.doneRejections[root + node][ordinal] {
            if keepsKeys[node], let record = group.members[index].record {
                stage.keptKeyWasRejected(record.key(at: entity.keyIndices), of: entity)
            }
            reject(&group, index, done.rejection, done.listed ?? true ? .whole : .none)
        }
        group.members[index].outcome = .settled
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
}
