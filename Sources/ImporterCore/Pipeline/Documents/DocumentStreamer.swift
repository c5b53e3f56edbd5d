/// Prepares a document's records while its reader scans them (docs/documents.md#large-documents):
/// each element once it is complete, with the key its parent had when the element's array
/// began, so that no element's source values outlive it. At the document's end its records go
/// to the chunks as a document read whole would: the same records, rejections and numbers.
final class DocumentStreamer: DocumentStream {
    let preparer: DocumentPreparer
    /// The chunks the documents go to, one per node of the shape.
    var chunks: [ParsedChunk]
    private var prepared: DocumentPreparer.PreparedDocument
    /// The key the children of the root, and of each element with children (by index), take;
    /// nil when its map rejects it.
    private var rootKey: [FieldValue]??
    private var keys: [Int: [FieldValue]?] = [:]
    /// Per node, the number in its chunk of its next record.
    private var next: [Int] = []
    private var assigning: [(index: Int, field: FieldValue)] = []

    init(preparer: DocumentPreparer, chunks: [ParsedChunk]) {
        self.preparer = preparer
        self.chunks = chunks
        prepared = .init(root: SourceRecord(line: 0, byteOffset: 0, raw: [], names: [], values: []))
    }

    func begin(_ root: SourceRecord) {
        prepared = .init(root: root)
        rootKey = nil
        keys.removeAll(keepingCapacity: true)
        next = chunks.map(\.count)
    }

    func childrenFollow(_ slot: Int?, node: Int, parent: Int?, position: Int, fields: SourceRecord) {
        guard let slot else {
            rootKey = .some(preparer.keyFields(of: fields, node: 0, assigning: []))
            return
        }
        guard let parentKey = key(of: parent) else {
            keys[slot] = .some(nil)
            return
        }
        preparer.assign(parentKey, position: position, node: node, to: &assigning)
        keys[slot] = .some(preparer.keyFields(of: fields, node: node, assigning: assigning))
    }

    func element(_ slot: Int, node: Int, parent: Int?, position: Int, record: SourceRecord) -> Bool {
        // Numbered as it will be added to its chunk, prepared or not (a node's elements end in
        // the order they begin).
        let ordinal = next[node]
        next[node] += 1
        var outcome: RecordPreparer.Outcome?
        if let parentKey = key(of: parent) {
            preparer.assign(parentKey, position: position, node: node, to: &assigning)
            outcome = preparer.preparer(of: node).outcome(of: record, ordinal: ordinal, assigning: assigning)
        }
        if let taken = keys[slot], let outcome, !tookItsKey(taken, outcome, node: node) { return false }
        prepared.set(
            .init(
                node: node, parent: parent.map { $0 + 1 } ?? 0, line: record.line, byteOffset: record.byteOffset,
                raw: record.raw),
            outcome, at: slot + 1)
        return true
    }

    func root(_ record: SourceRecord, pointers: PointerTable) -> Bool {
        let outcome = preparer.preparer(of: 0).outcome(of: record, ordinal: next[0])
        if let taken = rootKey, !tookItsKey(taken, outcome, node: 0) { return false }
        prepared.outcomes[0] = DocumentPreparer.PreparedDocument.withoutFields(outcome)
        preparer.finish(prepared, pointers: pointers, into: &chunks)
        return true
    }

    /// The key the children of element `parent` (nil: the root) took, nil when none could be.
    private func key(of parent: Int?) -> [FieldValue]? {
        guard let parent else { return rootKey ?? nil }
        return keys[parent] ?? nil
    }

    /// Whether a record's children took its key: the one it has now that it is complete, or
    /// none if it is rejected (and they with it).
    private func tookItsKey(_ taken: [FieldValue]?, _ outcome: RecordPreparer.Outcome, node: Int) -> Bool {
        guard case .prepared = outcome else { return true }
        guard let taken, preparer.keyFields(of: outcome, node: node) == taken else {
            preparer.streams = false
            return false
        }
        return true
    }
}
