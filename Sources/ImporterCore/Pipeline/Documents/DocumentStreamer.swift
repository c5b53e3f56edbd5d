/// Prepares a document's records while its reader scans them (docs/documents.md#large-documents):
/// each element once it is complete, with the key its parent had when the element's array
/// began, so that no element's source values outlive it. At the document's end its group goes
/// to the batch as a document read whole would: the same records, rejections and numbers.
final class DocumentStreamer: DocumentStream {
    let preparer: DocumentPreparer
    /// The documents read so far: touched once a document (its records go to the document
    /// being read), so its accesses stay checked.
    var batch: DocumentBatch
    /// The document being read (a struct in one property: each call takes one exclusive access
    /// to it, not one per field). Unchecked: only the thread streaming the document touches it,
    /// and no call reenters the streamer.
    @exclusivity(unchecked) private var document = Document()

    /// What the streamer knows of the document being read.
    private struct Document {
        var prepared = DocumentPreparer.PreparedDocument(
            root: SourceRecord(line: 0, byteOffset: 0, raw: [], names: [], values: []))
        /// The key the children of the root, and of each element with children (by index; none
        /// for an element without), take; nil when its map rejects it.
        var rootKey: [FieldValue]??
        var keys: [[FieldValue]??] = []
        /// Per node, the number in the batch of its next record.
        var next: [Int] = []
        /// Per node, the fields its records are given (see `DocumentPreparer.assign`), and the
        /// element whose key they hold (-1: the root; -2: none of this document's).
        var assigning: [[(index: Int, field: FieldValue)]] = []
        var assignedParent: [Int] = []
        /// The records the last document had: room made for as many in the next.
        var lastCount = 0

        /// Sets `assigning` for a record of `node`, element `position` of `parent` (nil: the
        /// root), whose children took `parentKey`.
        mutating func assign(
            _ parentKey: [FieldValue], parent: Int?, position: Int, node: Int, _ preparer: DocumentPreparer
        ) {
            let from = parent ?? -1
            preparer.assign(
                parentKey, position: position, node: node, to: &assigning[node],
                sameParent: assignedParent[node] == from)
            assignedParent[node] = from
        }

        /// The key the children of element `parent` (nil: the root) took, nil when none could be.
        func key(of parent: Int?) -> [FieldValue]? {
            guard let parent else { return rootKey ?? nil }
            return parent < keys.count ? keys[parent] ?? nil : nil
        }

        /// What the children of element `slot` took, if it has children.
        func taken(by slot: Int) -> [FieldValue]?? { slot < keys.count ? keys[slot] : nil }

        mutating func setKey(_ key: [FieldValue]?, of slot: Int) {
            if keys.count <= slot { keys.append(contentsOf: repeatElement(nil, count: slot + 1 - keys.count)) }
            keys[slot] = .some(key)
        }
    }

    init(preparer: DocumentPreparer, batch: DocumentBatch) {
        self.preparer = preparer
        self.batch = batch
        document.assigning = preparer.inputs.map { _ in [] }
        document.assignedParent = preparer.inputs.map { _ in -2 }
    }

    func begin(_ root: SourceRecord) {
        let next = batch.counts, packedFrom = preparer.packedFrom, textRelease = preparer.textRelease
        modify { document in
            document.prepared = .init(
                root: root, packedFrom: packedFrom, textRelease: textRelease, expected: document.lastCount)
            document.rootKey = nil
            document.keys.removeAll(keepingCapacity: true)
            document.next = next
            for node in document.assignedParent.indices { document.assignedParent[node] = -2 }
        }
    }

    func childrenFollow(_ slot: Int?, node: Int, parent: Int?, position: Int, fields: SourceRecord) {
        let preparer = preparer
        modify { document in
            guard let slot else {
                document.rootKey = .some(preparer.keyFields(of: fields, node: 0, assigning: []))
                return
            }
            guard let parentKey = document.key(of: parent) else {
                document.setKey(nil, of: slot)
                return
            }
            document.assign(parentKey, parent: parent, position: position, node: node, preparer)
            document.setKey(preparer.keyFields(of: fields, node: node, assigning: document.assigning[node]), of: slot)
        }
    }

    func element(_ slot: Int, node: Int, parent: Int?, position: Int, record: SourceRecord) -> Bool {
        let preparer = preparer
        return modify { document in
            // Numbered as it will be in the batch, prepared or not (a node's elements end in the
            // order they begin).
            let ordinal = document.next[node]
            document.next[node] += 1
            var outcome: RecordPreparer.Outcome?
            if let parentKey = document.key(of: parent) {
                document.assign(parentKey, parent: parent, position: position, node: node, preparer)
                // Its fields are kept only to check the key its children took.
                outcome = preparer.preparer(of: node).outcome(
                    of: record, ordinal: ordinal, assigning: document.assigning[node],
                    keepingFields: document.taken(by: slot) != nil)
            }
            if let taken = document.taken(by: slot), let outcome, !Self.tookItsKey(taken, outcome, node: node, preparer)
            {
                return false
            }
            if record.absentArrays != 0, let outcome,
                let absent = preparer.absentArrays(record.absentArrays, of: outcome, node: node)
            {
                document.prepared.absentArrays.append(absent)
            }
            document.prepared.set(
                .init(
                    node: node, parent: parent.map { $0 + 1 } ?? 0, line: record.line,
                    byteOffset: record.byteOffset, raw: record.raw.indices),
                outcome, at: slot + 1)
            return true
        }
    }

    func root(_ record: SourceRecord, pointers: PointerTable) -> Bool {
        let preparer = preparer
        let prepared = modify { document -> DocumentPreparer.PreparedDocument? in
            let outcome = preparer.preparer(of: 0).outcome(
                of: record, ordinal: document.next[0], keepingFields: document.rootKey != nil)
            if let taken = document.rootKey, !Self.tookItsKey(taken, outcome, node: 0, preparer) { return nil }
            if record.absentArrays != 0, let absent = preparer.absentArrays(record.absentArrays, of: outcome, node: 0) {
                document.prepared.absentArrays.append(absent)
            }
            document.prepared.setRoot(outcome)
            document.lastCount = document.prepared.origins.count
            // Taken, not copied: a large document's bookkeeping is not held while its records
            // are staged, nor copied when `finish` changes it.
            return document.prepared.take()
        }
        // Consumed: bound by `guard let` beside the optional, its arrays would be held twice, and
        // `finish` would copy them before its first change.
        guard let prepared = consume prepared else { return false }
        batch.append(preparer.finish(prepared, pointers: pointers, firstOrdinals: batch.counts))
        return true
    }

    /// Prepares `document`, read whole, into the batch (in place of one its reader gave up
    /// streaming: what was prepared of that one is dropped).
    func prepareWhole(_ document: consuming SourceDocument) {
        modify { _ = $0.prepared.take() }
        preparer.prepare(document, into: &batch)
    }

    @inline(__always)
    private func modify<Result>(_ body: (inout Document) -> Result) -> Result { body(&document) }

    /// Whether a record's children took its key: the one it has now that it is complete, or
    /// none if it is rejected (and they with it).
    private static func tookItsKey(
        _ taken: [FieldValue]?, _ outcome: RecordPreparer.Outcome, node: Int, _ preparer: DocumentPreparer
    ) -> Bool {
        guard case .prepared = outcome else { return true }
        guard let taken, preparer.keyFields(of: outcome, node: node) == taken else {
            preparer.streams = false
            return false
        }
        return true
    }
}
