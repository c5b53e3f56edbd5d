/// Prepares the records of a document source's documents (docs/documents.md): the root's and
/// each element's, each by the preparer of its node's input, a child taking its parent's key
/// and its position. The document is the unit: with `documents: whole` one invalid record
/// rejects all of them, listed once; with `partial`, the invalid element and its descendants.
final class DocumentPreparer {
    /// The run's input of each node of the shape.
    let inputs: [Int]
    private let preparers: [RecordPreparer]
    private let policy: DocumentPolicy
    /// Per node: what its records take from their parent, and what their children take from them.
    private let plans: [NodePlan]

    /// How a node's records are tied to their parents and children, looked up once, not per record.
    private struct NodePlan {
        /// The attributes filled from the parent's key (hash, then range), by index.
        let parentKeyAttributes: [Int]
        /// The attribute given the element's index in its array.
        let positionAttribute: Int?
        /// The node's key attributes, kept of each record for its children; empty for a node
        /// without children.
        let keyIndicesForChildren: [Int]
    }

    /// What a thread needs to make its own preparer for a document source.
    struct Recipe: Sendable {
        /// The source's inputs in the run, its root's first.
        let inputs: [RunInput]
        let root: Int
        let file: String

        var groupSize: Int { inputs[root].document!.groupSize }
    }

    /// The preparer of `recipe`'s document source, with objects of its own.
    convenience init(_ recipe: Recipe) throws {
        try self.init(inputs: recipe.inputs, root: recipe.root, file: recipe.file)
    }

    /// The preparer of the document source whose root input is `inputs[root]` (its child inputs
    /// follow it). Throws `ConfigurationError` for a map that does not fit its entity.
    init(inputs runInputs: [RunInput], root: Int, file: String) throws {
        let group = root..<root + runInputs[root].document!.groupSize
        inputs = Array(group)
        preparers = try group.map { index in
            let input = runInputs[index]
            return try RecordPreparer(
                .init(
                    inputIndex: index, entity: input.sourceEntity, map: input.source.map, migration: input.migration,
                    file: file, line: input.source.line))
        }
        let roles = group.map { runInputs[$0].document! }
        policy = roles[0].policy
        let shape = roles[0].shape
        plans = roles.indices.map { node in
            NodePlan(
                parentKeyAttributes: roles[node].parentKeyAttributes,
                positionAttribute: roles[node].positionAttribute,
                keyIndicesForChildren: shape.nodes[node].children.isEmpty
                    ? [] : runInputs[root + node].sourceEntity.keyIndices)
        }
    }

    /// Prepares `document` into the chunks of its nodes' inputs (`chunks[node]`), and marks its
    /// end in each of them.
    func prepare(_ document: consuming SourceDocument, into chunks: inout [ParsedChunk]) {
        prepareRecords(of: &document, into: &chunks)
        for node in chunks.indices { chunks[node].documentEnds.append(chunks[node].count) }
    }

    /// Prepares the records of `document`, dropping each one's source values once it is
    /// prepared: a large document's records would otherwise be held twice until its end.
    private func prepareRecords(of document: inout SourceDocument, into chunks: inout [ParsedChunk]) {
        // Each record's number in its chunk, in the order they are added.
        var next = chunks.map(\.count)
        func ordinal(_ node: Int) -> Int {
            defer { next[node] += 1 }
            return next[node]
        }
        var problems: [DocumentProblem] = []
        func found(_ rejection: Rejection, at pointer: String) { problems.append(rejection.problem(at: pointer)) }
        // The root's outcome, then each element's, without their mapped fields; nil for one
        // under a rejected element.
        var outcomes: [RecordPreparer.Outcome?] = []
        outcomes.reserveCapacity(document.elements.count + 1)
        // Per record: the fields of its key, which its children take (none for a node without
        // children); nil when rejected.
        var keyFields: [[FieldValue]?] = []
        keyFields.reserveCapacity(document.elements.count + 1)
        // Per record: the record (its index here) whose rejection it shares, itself or the
        // rejected element above it; -1 for none. The rejections are kept apart, by index: few
        // records have one.
        var causes: [Int32] = []
        causes.reserveCapacity(document.elements.count + 1)
        var rejections: [Int32: Rejection] = [:]
        func keep(_ outcome: RecordPreparer.Outcome?, node: Int, parentCause: Int32 = -1) {
            switch outcome {
            case .prepared(let record, let mapped)?:
                keyFields.append(plans[node].keyIndicesForChildren.map { mapped[$0] })
                causes.append(-1)
                outcomes.append(.prepared(record, fields: []))
            case .rejected(_, let rejection)?:
                keyFields.append(nil)
                rejections[Int32(causes.count)] = rejection
                causes.append(Int32(causes.count))
                outcomes.append(outcome)
            case nil:
                keyFields.append(nil)
                causes.append(parentCause)
                outcomes.append(nil)
            }
        }
        keep(preparers[0].outcome(of: document.root, ordinal: ordinal(0)), node: 0)
        document.root.values = []
        if case .rejected(_, let rejection)? = outcomes[0] { found(rejection, at: "") }
        // The fields an element is given (its parent's key, its position): one buffer for all.
        var assigning: [(index: Int, field: FieldValue)] = []
        assigning.reserveCapacity(3)
        // By index: copying each element would retain every array it holds.
        for index in document.elements.indices {
            let parentSlot = document.elements[index].parent.map { $0 + 1 } ?? 0
            let node = document.elements[index].node
            guard let parentKey = keyFields[parentSlot] else {
                keep(nil, node: node, parentCause: causes[parentSlot])
                continue
            }
            assigning.removeAll(keepingCapacity: true)
            for (attribute, field) in zip(plans[node].parentKeyAttributes, parentKey) {
                assigning.append((attribute, field))
            }
            if let position = plans[node].positionAttribute {
                assigning.append((position, .number(String(document.elements[index].position))))
            }
            let outcome = preparers[node].outcome(
                of: document.elements[index].record, ordinal: ordinal(node), assigning: assigning)
            document.elements[index].record.values = []
            if case .rejected(_, let rejection) = outcome { found(rejection, at: document.pointers[index]) }
            keep(outcome, node: node)
        }
        next = chunks.map(\.count)
        let rootRejected = if case .rejected? = outcomes[0] { true } else { false }
        if rootRejected || (policy == .whole && !problems.isEmpty) {
            rejectWhole(document, outcomes: outcomes, problems: problems, into: &chunks, ordinal: ordinal)
            return
        }
        // Each outcome moved out (`take`), not copied.
        add(
            outcomes[0].take(), of: document.root, element: nil, in: document, cause: nil, into: &chunks,
            ordinal: ordinal)
        for index in document.elements.indices {
            add(
                outcomes[index + 1].take(), of: document.elements[index].record, element: index, in: document,
                cause: rejections[causes[index + 1]], into: &chunks, ordinal: ordinal)
        }
    }

    /// Adds one record, the root's or `element`'s of `document`: prepared, rejected (listed, its
    /// pointer in the message), or rejected with its rejected ancestor (nil outcome; counted only).
    private func add(
        _ outcome: RecordPreparer.Outcome?, of record: @autoclosure () -> SourceRecord, element: Int?,
        in document: borrowing SourceDocument, cause: Rejection?, into chunks: inout [ParsedChunk],
        ordinal: (Int) -> Int
    ) {
        let node = element.map { document.elements[$0].node } ?? 0
        var pointer: String { element.map { document.pointers[$0] } ?? "" }
        switch outcome {
        case .prepared(let prepared, _)?:
            chunks[node].records.append(prepared)
            if let element {
                chunks[node].pointers.append(document.pointers, at: element)
            } else {
                chunks[node].pointers.append("")
            }
            _ = ordinal(node)
        case .rejected(let key, let rejection)?:
            chunks[node].reject(record(), ordinal: ordinal(node), key: key, rejection.located(at: pointer))
        case nil:
            var record = record()
            record.raw = []
            chunks[node].reject(
                record, ordinal: ordinal(node), key: nil,
                .withHolder(of: cause, at: pointer), listed: false)
        }
    }

    /// Rejects every record of the document: one listed line for the document (its first
    /// bytes, every problem), the others counted only.
    private func rejectWhole(
        _ document: SourceDocument, outcomes: [RecordPreparer.Outcome?], problems: [DocumentProblem],
        into chunks: inout [ParsedChunk], ordinal: (Int) -> Int
    ) {
        let rejection = Rejection.wholeDocument(records: document.elements.count + 1, problems: problems)
        var root = document.root
        root.raw = SourceRecord.excerpt(of: root.raw)
        chunks[0].reject(root, ordinal: ordinal(0), key: key(of: outcomes[0], node: 0), rejection)
        let withIt = Rejection.withDocument(
            of: rejection, line: document.root.line, offset: document.root.byteOffset)
        for (index, element) in document.elements.enumerated() {
            var record = element.record
            record.raw = []
            chunks[element.node].reject(
                record, ordinal: ordinal(element.node), key: key(of: outcomes[index + 1], node: element.node), withIt,
                listed: false)
        }
    }

    private func key(of outcome: RecordPreparer.Outcome?, node: Int) -> Value? {
        switch outcome {
        case .prepared(let record, _)?: preparers[node].entity.key(of: record.values)
        case .rejected(let key, _)?: key
        case nil: nil
        }
    }
}
