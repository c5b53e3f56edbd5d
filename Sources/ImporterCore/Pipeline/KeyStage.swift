/// The key stage: counts what was read, checks keys (duplicates within the run, to-one
/// references) and passes on the records that remain, with the rejections of the same stretch
/// of input, so that everything after it sees the input's order. Runs on a thread of its own,
/// which owns it.
final class KeyStage {
    let inputs: [RunInput]
    private let model: Model
    let ledger: KeyLedger
    /// Asked whether a referenced item is stored (nil: a dry run without a store).
    private let store: (any StoreReading)?
    let recorder: RunRecorder
    let resume: ResumePoint
    /// Whether a delete phase follows (sync, or replacing documents' children), which needs
    /// the rejected records' keys.
    private let keepsRejectedKeys: Bool
    /// For a delete phase: keys of rejected records, whose items must not be
    /// deleted, and the rejected records of each entity whose key could not be read.
    private(set) var rejectedKeys = Set<EntityKey>()
    private(set) var unkeyedRejects: [String: Int] = [:]
    /// Of `unkeyedRejects`, those rejected for a problem of their own: not only counted with an
    /// element or document rejected above them, whose parent is then not loaded either.
    private(set) var unkeyedListedRejects: [String: Int] = [:]
    /// The inputs whose records' keys are kept (`loadedKeys`): parents whose children a
    /// document re-load replaces, looked up by their key.
    private let keepsLoadedKeys: Set<Int>
    /// Per entity, the keys of the records of `keepsLoadedKeys` inputs that passed the checks.
    private(set) var loadedKeys: [String: [Value]] = [:]
    /// Of those, the ones the interrupted run this one resumes rejected while writing: their
    /// children are not replaced.
    private(set) var rejectedBeforeResume = Set<EntityKey>()
    /// The parents (by child entity and parent key) whose document had no key for the array of
    /// a replaced child (docs/documents.md#missing-arrays).
    private(set) var absentArrays = Set<EntityKey>()

    init(
        inputs: [RunInput], model: Model, ledger: KeyLedger, store: (any StoreReading)?, recorder: RunRecorder,
        resume: ResumePoint, keepsRejectedKeys: Bool, keepsLoadedKeys: Set<Int> = []
    ) {
        self.keepsLoadedKeys = keepsLoadedKeys
        self.inputs = inputs
        self.model = model
        self.ledger = ledger
        self.store = store
        self.recorder = recorder
        self.resume = resume
        self.keepsRejectedKeys = keepsRejectedKeys
    }

    /// Takes parsed chunks in input order until the end, and hands on what passed.
    func run(from parsed: Sequencer<ParsedItem>, to checked: BoundedChannel<CheckedItem>) {
        var stop = false
        // Per input, the number in it of its next chunk's first record (the inputs of a
        // document source take turns).
        var ordinalBases: [Int: Int] = [:]
        while true {
            switch parsed.take() {
            case .end:
                checked.put(.end)
                return
            case .inputDone(let input, let bytes):
                ordinalBases[input] = nil
                checked.put(.inputDone(input: input, bytes: bytes))
            case .documents(let root, var batch):
                if !stop, recorder.abortIfPastErrorLimit() { stop = true }
                guard !stop else { continue }
                for group in batch.groups where !group.absentArrays.isEmpty {
                    noteAbsentArrays(group.absentArrays, root: root)
                }
                let bases = batch.counts.indices.map { ordinalBases[root + $0, default: 0] }
                for node in batch.counts.indices { ordinalBases[root + node, default: 0] += batch.counts[node] }
                var check = GroupCheck(stage: self, root: root, ordinalBases: bases)
                let passed = check.run(&batch)
                stop = check.stop
                checked.put(.documents(passed))
            case .chunk(let input, var chunk):
                // More input after a passed error limit: the run aborts.
                if !stop, recorder.abortIfPastErrorLimit() { stop = true }
                guard !stop else { continue }  // aborted: what was read ahead is not counted
                let read = chunk.count
                var check = ChunkCheck(stage: self, input: input, ordinalBase: ordinalBases[input, default: 0])
                // A chunk's references that the run's keys do not name are looked up in one
                // snapshot of the store.
                if let store { store.lookingUp { check.run(&chunk) } } else { check.run(&chunk) }
                stop = check.stop
                ordinalBases[input, default: 0] += read
                if !chunk.records.isEmpty || !check.rejected.isEmpty {
                    checked.put(
                        .records(input: input, chunk.records, rejected: check.rejected, handback: chunk.handback))
                }
            }
        }
    }

    /// Whether a stored item of `entity` with `key` was named by a record of this run (sync
    /// deletes must keep it, even when the record was rejected).
    func wasNamed(_ key: Value, entity: Entity) throws -> Bool {
        try wasLoaded(key, entity: entity) || rejectedKeys.contains(EntityKey(entity, key))
    }

    func keepsLoaded(_ input: Int) -> Bool { keepsLoadedKeys.contains(input) }

    func keep(_ key: Value, of entity: Entity) { loadedKeys[entity.name, default: []].append(key) }

    /// Notes the records of the document source whose root input is `root` (by node and key)
    /// without the arrays of the children their bits name.
    private func noteAbsentArrays(_ records: [(node: Int, key: Value, children: UInt64)], root: Int) {
        let shape = inputs[root].document!.shape
        for (node, key, bits) in records {
            for (bit, child) in shape.nodes[node].children.enumerated() where bits & 1 << UInt64(bit) != 0 {
                absentArrays.insert(EntityKey(entity: inputs[root + child].entity.name, key: key))
            }
        }
    }

    /// Notes that a record whose key was kept (`keep`) was rejected while the resumed run wrote it.
    func keptKeyWasRejected(_ key: Value, of entity: Entity) { rejectedBeforeResume.insert(EntityKey(entity, key)) }

    /// Whether a record of this run with `key` passed the checks.
    func wasLoaded(_ key: Value, entity: Entity) throws -> Bool {
        try ledger.contains(key, entity: entity.name)
    }

    /// Counts a rejection and keeps it for rejects.ndjson.
    func reject(_ record: RejectedRecord, input: Int, into rejected: inout [RejectedRecord]) {
        if keepsRejectedKeys {
            let entity = inputs[input].entity.name
            if let key = record.key, !key.isNull {
                rejectedKeys.insert(EntityKey(entity: entity, key: key))
            } else {
                unkeyedRejects[entity, default: 0] += 1
                if record.listed { unkeyedListedRejects[entity, default: 0] += 1 }
            }
        }
        recorder.reject(input: input, line: record.line, key: record.key, record.rejection, listed: record.listed)
        rejected.append(record)
    }

    /// Counts a missing reference that did not reject its record.
    func report(_ missing: DocumentKeys.MissingReference) {
        recorder.missingReference(
            input: missing.input, relationship: missing.reference.relationship, target: missing.reference.parent.name,
            action: missing.reference.policy, line: missing.line, key: missing.key, missing.message)
    }

    /// Keeps the keys of a document that passed the checks (`check(…document:)`, which found
    /// them new) in the ledger, and counts its missing references.
    func accept(_ document: DocumentKeys) throws {
        if document.inLedger {
            ledger.commitPending()
        } else {
            for (fingerprint, location) in document.noted {
                try ledger.recordNew(fingerprint: fingerprint, at: location)
            }
        }
        for missing in document.missing { report(missing) }
    }

    /// Readies `document` for the keys of a document of `count` records: pending in the ledger
    /// when it can hold them, else noted apart.
    func begin(_ document: DocumentKeys, count: Int) throws {
        document.removeAll()
        document.inLedger = try ledger.beginPending(count: count)
    }

    /// Takes the keys of a rejected document back out of the ledger (`begin` forgets the rest).
    func discard(_ document: DocumentKeys) {
        if document.inLedger { ledger.rollBackPending() }
    }

    /// A to-one reference of an input's entity: the attribute holding the key, the parent, and
    /// what the source does when it names no parent. A class: checking a record's references
    /// then retains one object each, not every field of the parent entity.
    final class Reference {
        let relationship: String
        /// The attributes holding the parent's key: its hash key, or its hash and range keys.
        let attributeIndices: [Int]
        let parent: Entity
        let policy: ReferencePolicy
        /// `stationId`, or `[stationId, hour]`: the attributes, for messages.
        let attributes: String

        init(relationship: String, attributeIndices: [Int], parent: Entity, policy: ReferencePolicy, of entity: Entity)
        {
            self.relationship = relationship
            self.attributeIndices = attributeIndices
            self.parent = parent
            self.policy = policy
            let names = attributeIndices.map { entity.attributes[$0].name }
            attributes = names.count == 1 ? names[0] : "[\(names.joined(separator: ", "))]"
        }

        /// The message for a record whose reference names `key`, which is no parent's key.
        func message(naming key: Value) -> String {
            let shown = attributeIndices.count == 1 ? "'\(key)'" : key.description
            return "\(attributes): \(shown) names no \(parent.name) in this run's input or in the store"
        }
    }

    func references(of input: Int) -> [Reference] {
        let entity = inputs[input].entity
        return entity.toOneRelationships.compactMap { relationship -> Reference? in
            guard !relationship.keys.isEmpty, let parent = model.entity(named: relationship.destination) else {
                return nil
            }
            return Reference(
                relationship: relationship.name, attributeIndices: relationship.keys.map { entity.attributeIndex[$0]! },
                parent: parent,
                policy: inputs[input].source.references.policy(for: relationship.name), of: entity)
        }
    }

    /// The fingerprints a chunk's checks look up, `references.count + 1` a record: each
    /// reference's parent key (0 when it is null), then the record's own key. Taken before the
    /// checks, so that each record's lookups can be prefetched a few records ahead.
    func fingerprints(of records: [PreparedRecord], entity: Entity, references: [Reference]) -> [UInt64] {
        let ids = FingerprintIDs(entity: entity, references: references, ledger: ledger)
        var fingerprints: [UInt64] = []
        fingerprints.reserveCapacity(records.count * (references.count + 1))
        for position in records.indices {
            appendFingerprints(
                of: records, at: position, entity: entity, references: references, ids, to: &fingerprints)
        }
        return fingerprints
    }

    /// The ledger's numbers of an entity and of the parents of its references.
    struct FingerprintIDs {
        let own: Int
        let parents: [Int]

        init(entity: Entity, references: [Reference], ledger: KeyLedger) {
            own = ledger.entityID(entity.name)
            parents = references.map { ledger.entityID($0.parent.name) }
        }
    }

    /// Appends the fingerprints the checks of `records[position]` look up (see
    /// `fingerprints(of:entity:references:)`). The record is read in place: a copy of it would
    /// retain its values and text.
    @inline(__always)
    func appendFingerprints(
        of records: [PreparedRecord], at position: Int, entity: Entity, references: [Reference],
        _ ids: FingerprintIDs, to fingerprints: inout [UInt64]
    ) {
        // A packed record (a large document's) unpacks its keys alone.
        guard !records[position].isPacked else {
            for (reference, parent) in zip(references, ids.parents) {
                let key = records[position].key(at: reference.attributeIndices)
                fingerprints.append(key.isNull ? 0 : ledger.fingerprint(of: key, entityID: parent))
            }
            fingerprints.append(ledger.fingerprint(of: records[position].key(at: entity.keyIndices), entityID: ids.own))
            return
        }
        let values = records[position].values
        for (reference, parent) in zip(references, ids.parents) {
            let key = Value.key(values, at: reference.attributeIndices)
            fingerprints.append(key.isNull ? 0 : ledger.fingerprint(of: key, entityID: parent))
        }
        fingerprints.append(ledger.fingerprint(of: entity.key(of: values), entityID: ids.own))
    }

    func prefetch(_ fingerprints: ArraySlice<UInt64>) {
        for fingerprint in fingerprints where fingerprint != 0 { ledger.prefetch(fingerprint) }
    }

    /// Duplicate keys within the run, and to-one references: a missing one rejects the record,
    /// or is cleared (`nullify`) or kept, and counted. `fingerprints`: the record's, from `fingerprints(of:…)`.
    /// With `document`, the record's key is kept pending (with its missing references) until its
    /// whole document has passed: then `accept(_:)` records them, else `discard(_:)` drops them.
    func check(
        _ record: inout PreparedRecord, entity: Entity, references: [Reference], fingerprints: ArraySlice<UInt64>,
        at location: RecordLocation, document: DocumentKeys? = nil
    ) -> Rejection? {
        do {
            // Counted once the record passed every check: a duplicate stores nothing.
            // Each with the key that names no parent; its message is made only if it is listed.
            var missing: [(reference: Reference, key: Value)] = []
            // A null reference is not missing. By index, not `zip`: a zip's iterator, destroyed
            // where a check throws, goes through generic code for every record.
            for (index, reference) in references.enumerated() {
                let fingerprint = fingerprints[fingerprints.startIndex + index]
                guard fingerprint != 0 else { continue }
                // A document's keys noted apart first (one too large for the ledger's memory):
                // a child's parent is mostly in its document.
                if let document, !document.inLedger, document.contains(fingerprint) { continue }
                if try ledger.contains(fingerprint: fingerprint) { continue }
                let key = record.key(at: reference.attributeIndices)
                if try store?.contains(key, in: reference.parent) == true { continue }
                guard reference.policy != .reject else {
                    return Rejection(
                        stage: .validate, reason: .reference, field: reference.attributes,
                        target: reference.parent.name,
                        reference.message(naming: key))
                }
                if reference.policy == .nullify {
                    for index in reference.attributeIndices { record.values[index] = .null }
                }
                missing.append((reference, key))
            }
            let own = fingerprints[fingerprints.endIndex - 1]
            let first =
                if let document {
                    try document.inLedger
                        ? ledger.recordPending(fingerprint: own, at: location)
                        : ledger.firstOccurrence(fingerprint: own) ?? document.note(own, at: location)
                } else {
                    try ledger.record(fingerprint: own, at: location)
                }
            if let first {
                let file = first.inputIndex == location.inputIndex ? "" : " of \(inputs[first.inputIndex].path)"
                return Rejection(
                    stage: .validate, reason: .duplicate, field: entity.rangeKey == nil ? entity.hashKey : nil,
                    "\(entity.describe(key: record.key(at: entity.keyIndices))) already appeared on line \(first.line)\(file); the first occurrence is kept"
                )
            }
            guard !missing.isEmpty else { return nil }
            let key = record.key(at: entity.keyIndices)
            for (reference, named) in missing {
                let missingReference = DocumentKeys.MissingReference(
                    input: location.inputIndex, reference: reference, line: location.line, key: key, named: named)
                if let document { document.missing.append(missingReference) } else { report(missingReference) }
            }
        } catch {
            return Rejection(stage: .validate, reason: .constraint, "key check failed: \(error)")
        }
        return nil
    }
}

/// The key checks of one chunk: rejects its records that fail them or were written before an
/// interruption, keeping the rest in `chunk.records` with their numbers in the input.
private struct ChunkCheck {
    let stage: KeyStage
    let input: Int
    /// The number in the input of the chunk's first record.
    let ordinalBase: Int
    /// The chunk's rejections, parse-stage and key-stage, in input order.
    var rejected: [RejectedRecord] = []
    /// Set when the run aborted.
    var stop = false
    /// The run passed an error limit: the next record aborts it (none: it ends `partial`).
    private var pastLimit = false
    /// Records read but not yet counted (counted in runs, and before each rejection).
    private var pendingRead = 0
    /// How many records ahead the key lookups are prefetched: far enough for the loads to
    /// arrive, near enough for them to stay in the cache.
    private static let lookahead = 8

    init(stage: KeyStage, input: Int, ordinalBase: Int) {
        self.stage = stage
        self.input = input
        self.ordinalBase = ordinalBase
    }

    mutating func run(_ chunk: inout ParsedChunk) {
        let entity = stage.inputs[input].entity
        let references = stage.references(of: input)
        let fingerprints = stage.fingerprints(of: chunk.records, entity: entity, references: references)
        let stride = references.count + 1
        let skipBefore = stage.resume.skipBefore[input]
        let keepsKeys = stage.keepsLoaded(input)
        var nextReject = chunk.rejects.startIndex
        var kept = 0
        for position in chunk.records.indices {
            chunk.records[position].ordinal += ordinalBase
            let (ordinal, line) = (chunk.records[position].ordinal, chunk.records[position].line)
            rejectParsed(chunk.rejects, from: &nextReject, before: ordinal)
            if pendingRead >= 1024 { countRead() }
            if stopsBeforeNextRecord() { break }
            pendingRead += 1
            let ahead = (position + Self.lookahead) * stride
            if ahead < fingerprints.count { stage.prefetch(fingerprints[ahead..<ahead + stride]) }
            if let rejection = stage.check(
                &chunk.records[position], entity: entity, references: references,
                fingerprints: fingerprints[position * stride..<(position + 1) * stride],
                at: RecordLocation(inputIndex: input, line: line))
            {
                reject(chunk.records[position], rejection)
                continue
            }
            if keepsKeys { stage.keep(chunk.records[position].key(at: entity.keyIndices), of: entity) }
            // Written before the interruption: its outcome is in the checkpoint.
            if ordinal < skipBefore {
                if let done = stage.resume.doneRejections[input][ordinal] {
                    reject(chunk.records[position], done.rejection)
                }
                continue
            }
            chunk.records.swapAt(kept, position)
            kept += 1
        }
        rejectParsed(chunk.rejects, from: &nextReject, before: Int.max)
        countRead()
        chunk.records.removeLast(chunk.records.count - kept)
    }

    /// Rejects the parse stage's rejections numbered before `ordinal`.
    private mutating func rejectParsed(_ rejects: [ParseReject], from next: inout Int, before ordinal: Int) {
        while next < rejects.endIndex, rejects[next].ordinal + ordinalBase < ordinal, !stopsBeforeNextRecord() {
            let parsed = rejects[next]
            next += 1
            pendingRead += 1
            reject(
                RejectedRecord(
                    ordinal: parsed.ordinal + ordinalBase, line: parsed.line, offset: parsed.byteOffset,
                    key: parsed.key, raw: parsed.raw, rejection: parsed.rejection, listed: parsed.listed))
        }
    }

    private mutating func reject(_ record: PreparedRecord, _ rejection: Rejection) {
        let entity = stage.inputs[input].entity
        reject(
            RejectedRecord(
                ordinal: record.ordinal, line: record.line, offset: record.byteOffset,
                key: entity.key(of: record.values), raw: RecordText.of(record, in: stage.inputs), rejection: rejection))
    }

    private mutating func reject(_ record: RejectedRecord) {
        countRead()
        stage.reject(record, input: input, into: &rejected)
        (stop, pastLimit) = stage.recorder.standing
    }

    private mutating func countRead() {
        stage.recorder.read(input: input, count: pendingRead)
        pendingRead = 0
        (stop, pastLimit) = stage.recorder.standing
    }

    /// Whether to stop before the next record: the run aborted, or it passed an error limit
    /// and this record is more input (so the run aborts now).
    private mutating func stopsBeforeNextRecord() -> Bool {
        if pastLimit && !stop { stop = stage.recorder.abortIfPastErrorLimit() }
        return stop
    }
}
