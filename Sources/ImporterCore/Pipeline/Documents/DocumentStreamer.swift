/// Prepares a document's records while its reader scans them (docs/documents.md#large-documents):
/// each element once it is complete, with the key its parent had when the element's array
/// began, so that no element's source values outlive it. At the document's end its records go
/// to the chunks as a document read whole would: the same records, rejections and numbers.
final class DocumentStreamer: DocumentStream {
    let preparer: DocumentPreparer
    /// The chunks the documents go to, one per node of the shape. Unchecked, as `document` is.
    @exclusivity(unchecked) var chunks: [ParsedChunk]
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
        /// Per node, the number in its chunk of its next record.
        var next: [Int] = []
        /// Per node, the fields its records are given (see `DocumentPreparer.assign`), and the
        /// element whose key they hold (-1: the root; -2: none of this document's).
        var assigning: [[(index: Int, field: FieldValue)]] = []
        var assignedParent: [Int] = []
        /// The records the last document had: room made for as many in the next.
        var lastCount = 0
        /// Whether the document began and did not end: its records in the chunks are not yet
        /// the chunks' own.
        var unfinished = false

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

    init(preparer: DocumentPreparer, chunks: [ParsedChunk]) {
        self.preparer = preparer
        self.chunks = chunks
        document.assigning = preparer.inputs.map { _ in [] }
        document.assignedParent = preparer.inputs.map { _ in -2 }
    }

    func begin(_ root: SourceRecord) {
        discardUnfinished()
        let next = chunks.map(\.count), packedFrom = preparer.packedFrom, textRelease = preparer.textRelease
        let recordBases = chunks.map(\.records.count)
        modify { document in
            document.prepared = .init(
                root: root, packedFrom: packedFrom, textRelease: textRelease, recordBases: recordBases,
                expected: document.lastCount)
            document.unfinished = true
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
            // Numbered as it will be added to its chunk, prepared or not (a node's elements end
            // in the order they begin).
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
            if record.absentArrays != 0, let outcome {
                preparer.noteAbsentArrays(record.absentArrays, of: outcome, node: node, in: &chunks[node])
            }
            document.prepared.set(
                .init(
                    node: node, parent: parent.map { $0 + 1 } ?? 0, line: record.line,
                    byteOffset: record.byteOffset, raw: record.raw.indices),
                outcome, at: slot + 1, into: &chunks)
            return true
        }
    }

    func root(_ record: SourceRecord, pointers: PointerTable) -> Bool {
        let preparer = preparer
        let prepared = modify { document -> DocumentPreparer.PreparedDocument? in
            let outcome = preparer.preparer(of: 0).outcome(
                of: record, ordinal: document.next[0], keepingFields: document.rootKey != nil)
            if let taken = document.rootKey, !Self.tookItsKey(taken, outcome, node: 0, preparer) { return nil }
            if record.absentArrays != 0 {
                preparer.noteAbsentArrays(record.absentArrays, of: outcome, node: 0, in: &chunks[0])
            }
            document.prepared.setRoot(outcome, into: &chunks)
            document.lastCount = document.prepared.origins.count
            document.unfinished = false
            // Taken, not copied: a large document's bookkeeping is not held while its records
            // are staged, nor copied when `finish` changes it.
            return document.prepared.take()
        }
        // Consumed: bound by `guard let` beside the optional, its arrays would be held twice, and
        // `finish` would copy them before its first change.
        guard let prepared = consume prepared else { return false }
        preparer.finish(prepared, pointers: pointers, into: &chunks)
        return true
    }

    /// Prepares `document`, read whole, into the chunks, after taking out the records of one
    /// left unfinished (its reader gave up streaming it, and read it whole).
    func prepareWhole(_ document: consuming SourceDocument) {
        discardUnfinished()
        preparer.prepare(document, into: &chunks)
    }

    /// Takes the records of a document that began and did not end out of the chunks.
    private func discardUnfinished() {
        modify { document in
            guard document.unfinished else { return }
            document.prepared.discard(from: &chunks)
            document.unfinished = false
        }
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
