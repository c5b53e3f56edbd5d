/// Prepares the records of a document source's documents (docs/documents.md): the root's and
/// each element's, each by the preparer of its node's input, a child taking its parent's key
/// and its position. The document is the unit: with `documents: whole` one invalid record
/// rejects all of them, listed once; with `partial`, the invalid element and its descendants.
final class DocumentPreparer {
    /// The run's input of each node of the shape.
    let inputs: [Int]
    private let preparers: [RecordPreparer]
    private let policy: DocumentPolicy
    /// The size from which a document's records are held packed (`RunOptions.packedDocumentBytes`).
    let packedFrom: Int
    /// What a packed document does with its text.
    let textRelease: TextRelease

    /// What a packed document does with its text (docs/documents.md#large-documents): its
    /// records let it go, and it is freed once they are prepared, not kept to their write, when
    /// their text can be read again — from the input, a local file read as it is (not
    /// decompressed nor decoded), whose bytes at a record's offset are its text; else from a
    /// copy of the document.
    enum TextRelease {
        case kept
        case readAgainFromInput
        case copiedTo(DocumentTexts)
    }
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
        /// The children (bits in the node's order) whose stored items are replaced: a record
        /// without their array's key is noted (`ParsedChunk.absentArrays`).
        let replacedChildren: UInt64

        var hasChildren: Bool { !keyIndicesForChildren.isEmpty }
    }

    /// What a thread needs to make its own preparer for a document source.
    struct Recipe: Sendable {
        /// The source's inputs in the run, its root's first.
        let inputs: [RunInput]
        let root: Int
        let file: String
        let packedFrom: Int
        /// Whether the input is a local file read as it is (see `DocumentPreparer.TextRelease`).
        let textInInput: Bool

        var groupSize: Int { inputs[root].document!.groupSize }
    }

    /// The preparer of `recipe`'s document source, with objects of its own.
    convenience init(_ recipe: Recipe) throws {
        try self.init(
            inputs: recipe.inputs, root: recipe.root, file: recipe.file, packedFrom: recipe.packedFrom,
            textInInput: recipe.textInInput)
    }

    /// The preparer of the document source whose root input is `inputs[root]` (its child inputs
    /// follow it), holding the records of a document of `packedFrom` bytes or more packed; with
    /// their text read again from the input when `textInInput`, else from a copy
    /// (`TextRelease`). Throws `ConfigurationError` for a map that does not
    /// fit its entity.
    init(
        inputs runInputs: [RunInput], root: Int, file: String, packedFrom: Int = PreparedDocument.packedFrom,
        textInInput: Bool = false
    ) throws {
        self.packedFrom = packedFrom
        textRelease = runInputs[root].documentTexts.map { textInInput ? .readAgainFromInput : .copiedTo($0) } ?? .kept
        let group = root..<root + runInputs[root].document!.groupSize
        inputs = Array(group)
        preparers = try group.map { index in
            let input = runInputs[index]
            return try RecordPreparer(
                .init(
                    inputIndex: index, entity: input.sourceEntity, map: input.source.map, migration: input.migration,
                    file: file, line: input.source.line, numberLimits: input.numberLimits))
        }
        let roles = group.map { runInputs[$0].document! }
        policy = roles[0].policy
        let shape = roles[0].shape
        plans = roles.indices.map { node in
            NodePlan(
                parentKeyAttributes: roles[node].parentKeyAttributes,
                positionAttribute: roles[node].positionAttribute,
                keyIndicesForChildren: shape.nodes[node].children.isEmpty
                    ? [] : runInputs[root + node].sourceEntity.keyIndices,
                replacedChildren: shape.nodes[node].children.enumerated().reduce(0) { bits, child in
                    roles[child.element].replace ? bits | 1 << UInt64(child.offset) : bits
                })
        }
    }

    /// Notes that the record `outcome` of `node` has no key for the arrays of the replaced
    /// children `absent` names (`SourceRecord.absentArrays`), by its key.
    func noteAbsentArrays(_ absent: UInt64, of outcome: RecordPreparer.Outcome, node: Int, in chunk: inout ParsedChunk)
    {
        let replaced = absent & plans[node].replacedChildren
        guard replaced != 0, case .prepared(let record, _) = outcome else { return }
        chunk.absentArrays.append((preparers[node].entity.key(of: record.values), replaced))
    }

    /// Prepares `document`, read whole, into the chunks of its nodes' inputs (`chunks[node]`),
    /// and marks its end in each of them: as `DocumentStreamer` prepares a document while it is
    /// read, each element after its parent here, dropping each one's source values once it is
    /// prepared (a large document's records would otherwise be held twice until its end).
    func prepare(_ document: consuming SourceDocument, into chunks: inout [ParsedChunk]) {
        let streamer = DocumentStreamer(preparer: self, chunks: [])
        swap(&streamer.chunks, &chunks)
        defer { swap(&streamer.chunks, &chunks) }
        streamer.begin(document.root)
        if plans[0].hasChildren {
            streamer.childrenFollow(nil, node: 0, parent: nil, position: 0, fields: document.root)
        }
        for index in document.elements.indices {
            let node = document.elements[index].node, parent = document.elements[index].parent
            let position = document.elements[index].position
            if plans[node].hasChildren {
                streamer.childrenFollow(
                    index, node: node, parent: parent, position: position, fields: document.elements[index].record)
            }
            let complete = streamer.element(
                index, node: node, parent: parent, position: position, record: document.elements[index].record)
            assert(complete, "read whole, an element's children take the key it has")
            document.elements[index].record.values = []
        }
        let complete = streamer.root(document.root, pointers: document.pointers)
        assert(complete, "read whole, the root's children take the key it has")
    }

    /// Whether documents are prepared as they are read (`DocumentStreamer`): until one turns out
    /// to need its whole text read first, which its reader then reads again.
    var streams = true

    /// A document's records as they were prepared, with where each came from: the root's at 0,
    /// element `i`'s at `i + 1`.
    struct PreparedDocument {
        /// Where a record came from, kept once its source values are freed. Its text is the range
        /// it takes of the document's, not a slice of its own: 32 bytes and a retain less for
        /// each element of a large document.
        struct Origin {
            private let storedNode: Int32
            private let storedParent: Int32
            let line: Int
            let byteOffset: Int64
            /// Its text's place in the document's (`PreparedDocument.text`).
            let raw: Range<Int>

            init(node: Int, parent: Int?, line: Int, byteOffset: Int64, raw: Range<Int>) {
                storedNode = Int32(node)
                storedParent = Int32(parent ?? -1)
                self.line = line
                self.byteOffset = byteOffset
                self.raw = raw
            }

            var node: Int { Int(storedNode) }
            /// Its parent's index here (0: the root); nil for the root.
            var parent: Int? { storedParent < 0 ? nil : Int(storedParent) }
        }

        /// The document's text: its root's, of which its elements' are slices.
        private(set) var text: ArraySlice<UInt8> = []
        /// Whether its records are held packed: a large document's, all held until its end
        /// (docs/documents.md#large-documents).
        private(set) var packs = false
        /// Whether its packed records let their text go (`PreparedRecord.packLettingTextGo`).
        private var letsTextGo = false
        /// The size from which a document's records are held packed, unless a run says otherwise:
        /// below it, a document's records take less than 40 MB as they are, and unpacking each
        /// one again costs time.
        static let packedFrom = 8 << 20
        var origins: [Origin] = []
        /// Per node, the number of records its chunk held before this document's. Its prepared
        /// records go straight to their chunks, each node's in the order of its elements (they
        /// end in the order they begin), and are taken out again if it is rejected.
        private var recordBases: [Int] = []
        /// Per record: its place among its node's records of this document; -1 for one not
        /// prepared, whose outcome is in `unprepared` (none: under a rejected element).
        private var places: [Int32] = []
        /// Per node, its records so far.
        private var recordCounts: [Int32] = []
        /// The outcomes of the records that were not prepared, by index.
        private var unprepared: [Int: RecordPreparer.Outcome] = [:]

        /// This document, leaving an empty one in its place.
        mutating func take() -> PreparedDocument {
            var taken = PreparedDocument()
            swap(&self, &taken)
            return taken
        }

        /// No record: what `take` leaves.
        private init() {}

        /// A document whose root is `root`, its records packed from `packedFrom` bytes, and
        /// their text released as `textRelease` says, going to chunks that hold `recordBases`
        /// records; with room for `expected` records (the last document's count, say: a guess,
        /// not a limit).
        init(
            root: SourceRecord, packedFrom: Int = Self.packedFrom, textRelease: TextRelease = .kept,
            recordBases: [Int] = [], expected: Int = 0
        ) {
            self.recordBases = recordBases
            recordCounts = recordBases.map { _ in 0 }
            origins.reserveCapacity(expected)
            places.reserveCapacity(expected)
            text = root.raw
            packs = root.raw.count >= packedFrom
            switch textRelease {
            case .kept: letsTextGo = false
            case .readAgainFromInput: letsTextGo = packs
            case .copiedTo(let texts): letsTextGo = packs && texts.copy(root.raw, at: root.byteOffset)
            }
            origins.append(
                Origin(node: 0, parent: nil, line: root.line, byteOffset: root.byteOffset, raw: root.raw.indices))
            places.append(-1)
        }

        /// The record of `origin`'s place, without fields; without its text when not `withText`.
        /// Its text is copied when the document's records let theirs go: a slice would keep
        /// the document's text alive.
        func record(_ origin: Origin, withText: Bool = true) -> SourceRecord {
            var raw: ArraySlice<UInt8> = []
            if withText && !origin.raw.isEmpty {
                raw = letsTextGo ? ArraySlice(Array(text[origin.raw])) : text[origin.raw]
            }
            return SourceRecord(line: origin.line, byteOffset: origin.byteOffset, raw: raw, names: [], values: [])
        }

        /// Sets the record at `index`, which may come before those above it: an element ends
        /// after its children. Both are moved in, not copied (a copy retains each of their
        /// buffers once more).
        mutating func set(
            _ origin: consuming Origin, _ outcome: consuming RecordPreparer.Outcome?, at index: Int,
            into chunks: inout [ParsedChunk]
        ) {
            if origins.count < index {
                let missing = index - origins.count
                origins.append(
                    contentsOf: repeatElement(
                        Origin(node: 0, parent: nil, line: 0, byteOffset: 0, raw: 0..<0), count: missing))
                places.append(contentsOf: repeatElement(-1, count: missing))
            }
            let place = keep(outcome, node: origin.node, at: index, into: &chunks)
            if origins.count == index {
                origins.append(origin)
                places.append(place)
            } else {
                origins[index] = origin
                places[index] = place
            }
        }

        /// Sets the root's outcome, once its object has ended.
        mutating func setRoot(_ outcome: consuming RecordPreparer.Outcome?, into chunks: inout [ParsedChunk]) {
            places[0] = keep(outcome, node: 0, at: 0, into: &chunks)
        }

        /// Keeps the outcome of record `index` as the document holds it to its end, and returns
        /// its place among its node's records: a prepared record goes to its chunk, without the
        /// mapped fields, which no one reads once its children have their parent's key, and
        /// with its values packed when the document `packs`.
        private mutating func keep(
            _ outcome: consuming RecordPreparer.Outcome?, node: Int, at index: Int, into chunks: inout [ParsedChunk]
        ) -> Int32 {
            guard case .prepared? = outcome else {
                if let other = outcome { unprepared[index] = other }
                return -1
            }
            // Taken out of the outcome, not bound from it: a binding copies the record, and
            // retains its values and text once more.
            guard case .prepared(var record, _)? = outcome.take() else { return -1 }
            if letsTextGo {
                record.packLettingTextGo()
            } else if packs {
                record.pack()
            }
            chunks[node].records.append(consume record)
            recordCounts[node] += 1
            return recordCounts[node] - 1
        }

        /// Whether every record was prepared: none is rejected.
        var allPrepared: Bool { unprepared.isEmpty && !places.contains(-1) }

        /// Each record's outcome by index, without its mapped fields (nil for one not prepared,
        /// under a rejected element), its prepared records taken out of `chunks`.
        mutating func takeOutcomes(from chunks: inout [ParsedChunk]) -> [RecordPreparer.Outcome?] {
            let records = recordBases.indices.map { node in
                defer { chunks[node].records.removeSubrange(recordBases[node]...) }
                return Array(chunks[node].records[recordBases[node]...])
            }
            return origins.indices.map { index in
                let place = Int(places[index])
                return place >= 0 ? .prepared(records[origins[index].node][place], fields: []) : unprepared[index]
            }
        }

        /// Takes the records it prepared so far out of `chunks`: a document left unfinished.
        func discard(from chunks: inout [ParsedChunk]) {
            for node in recordBases.indices { chunks[node].records.removeSubrange(recordBases[node]...) }
        }
    }

    /// Sets `assigning` to the fields a record of `node` is given: its parent's key, its position.
    /// `assigning` is the node's own, kept from its last record: the same attributes, whose
    /// fields are overwritten in place. With `sameParent`, the last record's parent was this
    /// one's, and only the position is set.
    func assign(
        _ parentKey: [FieldValue], position: Int, node: Int, to assigning: inout [(index: Int, field: FieldValue)],
        sameParent: Bool = false
    ) {
        if sameParent {
            if plans[node].positionAttribute != nil { assigning[assigning.count - 1].field = .number(String(position)) }
            return
        }
        let attributes = plans[node].parentKeyAttributes, positionAttribute = plans[node].positionAttribute
        let count = attributes.count + (positionAttribute == nil ? 0 : 1)
        guard parentKey.count == attributes.count, assigning.count == count else {
            assigning.removeAll(keepingCapacity: true)
            for (attribute, field) in zip(attributes, parentKey) { assigning.append((attribute, field)) }
            if let positionAttribute { assigning.append((positionAttribute, .number(String(position)))) }
            return
        }
        for index in parentKey.indices { assigning[index].field = parentKey[index] }
        if positionAttribute != nil { assigning[count - 1].field = .number(String(position)) }
    }

    /// The fields of its key that the children of a record of `node` take: from `record` as
    /// read so far, given `assigning` (docs/documents.md); nil when its map rejects it.
    func keyFields(
        of record: SourceRecord, node: Int, assigning: [(index: Int, field: FieldValue)]
    ) -> [FieldValue]? {
        preparers[node].mappedFields(
            of: record, at: plans[node].keyIndicesForChildren, assigning: assigning)
    }

    /// The fields of `outcome`'s key that its children take, if it was prepared.
    func keyFields(of outcome: RecordPreparer.Outcome, node: Int) -> [FieldValue]? {
        guard case .prepared(_, let mapped) = outcome else { return nil }
        return plans[node].keyIndicesForChildren.map { mapped[$0] }
    }

    /// The preparer of `node`'s records.
    func preparer(of node: Int) -> RecordPreparer { preparers[node] }

    /// Adds the records of `prepared` to the chunks: a record under a rejected element is
    /// rejected with it; with `documents: whole`, one problem rejects them all. Marks the
    /// document's end in each chunk.
    func finish(_ prepared: consuming PreparedDocument, pointers: PointerTable, into chunks: inout [ParsedChunk]) {
        guard !prepared.allPrepared else {
            add(origins: prepared.origins, pointers: pointers, into: &chunks)
            return
        }
        // Moved out, so that rejecting a record below changes the array in place.
        var outcomes = prepared.takeOutcomes(from: &chunks)
        let origins = prepared.origins
        func pointer(_ index: Int) -> String { index == 0 ? "" : pointers[index - 1] }
        // Per record: the record whose rejection it shares (itself, or the nearest rejected one
        // above it); -1 for none.
        var causes = [Int32](repeating: -1, count: outcomes.count)
        var problems: [DocumentProblem] = []
        for index in outcomes.indices {
            if let parent = origins[index].parent, causes[parent] >= 0 {
                causes[index] = causes[parent]
                outcomes[index] = nil
            } else if case .rejected(_, let rejection)? = outcomes[index] {
                causes[index] = Int32(index)
                problems.append(rejection.problem(at: pointer(index)))
            }
        }
        func cause(of index: Int) -> Rejection? {
            guard causes[index] >= 0, case .rejected(_, let rejection)? = outcomes[Int(causes[index])] else {
                return nil
            }
            return rejection
        }
        var next = chunks.map(\.count)
        func ordinal(_ node: Int) -> Int {
            defer { next[node] += 1 }
            return next[node]
        }
        reserveRoom(for: origins, pointers: pointers, in: &chunks, records: true)
        let rootRejected = if case .rejected? = outcomes[0] { true } else { false }
        if rootRejected || (policy == .whole && !problems.isEmpty) {
            rejectWhole(prepared, outcomes: outcomes, problems: problems, into: &chunks, ordinal: ordinal)
        } else {
            for index in outcomes.indices {
                let node = origins[index].node
                switch outcomes[index] {
                case .prepared?:
                    // Moved, not copied: its values and text are not retained once more.
                    guard case .prepared(let record, _)? = outcomes[index].take() else { continue }
                    chunks[node].records.append(record)
                    if index == 0 {
                        chunks[node].pointers.append("")
                    } else {
                        chunks[node].pointers.append(pointers, at: index - 1)
                    }
                    _ = ordinal(node)
                case .rejected(let key, let rejection)?:
                    chunks[node].reject(
                        prepared.record(origins[index]), ordinal: ordinal(node), key: key,
                        rejection.located(at: pointer(index)))
                case nil:
                    let record = prepared.record(origins[index], withText: false)
                    chunks[node].reject(
                        record, ordinal: ordinal(node), key: nil, .withHolder(of: cause(of: index), at: pointer(index)),
                        listed: false)
                }
            }
        }
        for node in chunks.indices { chunks[node].documentEnds.append(chunks[node].count) }
    }

    /// Adds the pointers of a document none of whose records was rejected, in its records' order
    /// (its records are in the chunks already). Marks the document's end in each chunk.
    private func add(origins: [PreparedDocument.Origin], pointers: PointerTable, into chunks: inout [ParsedChunk]) {
        reserveRoom(for: origins, pointers: pointers, in: &chunks, records: false)
        chunks[0].pointers.append("")
        for index in origins.indices.dropFirst() {
            chunks[origins[index].node].pointers.append(pointers, at: index - 1)
        }
        for node in chunks.indices { chunks[node].documentEnds.append(chunks[node].count) }
    }

    /// Room in the chunks for a document's pointers (and its records, when `records`) at once:
    /// grown by doubling, a chunk's arrays can hold nearly twice a large document's memory.
    private func reserveRoom(
        for origins: [PreparedDocument.Origin], pointers: PointerTable, in chunks: inout [ParsedChunk], records: Bool
    ) {
        var added = chunks.map { _ in (records: 0, pointerBytes: 0) }
        for index in origins.indices {
            added[origins[index].node].records += 1
            added[origins[index].node].pointerBytes += index == 0 ? 0 : pointers.length(at: index - 1)
        }
        for node in chunks.indices {
            let needed = chunks[node].records.count + added[node].records
            let capacity = chunks[node].records.capacity
            if records && needed > capacity { chunks[node].records.reserveCapacity(max(needed, capacity * 2)) }
            chunks[node].pointers.reserve(adding: added[node].records, bytes: added[node].pointerBytes)
        }
    }

    /// Rejects every record of the document: one listed line for the document (its first
    /// bytes, every problem), the others counted only.
    private func rejectWhole(
        _ prepared: borrowing PreparedDocument, outcomes: [RecordPreparer.Outcome?], problems: [DocumentProblem],
        into chunks: inout [ParsedChunk], ordinal: (Int) -> Int
    ) {
        let origins = prepared.origins
        let root = origins[0]
        let rejection = Rejection.wholeDocument(records: origins.count, problems: problems)
        var record = prepared.record(root, withText: false)
        record.raw = SourceRecord.excerpt(of: prepared.text)
        chunks[0].reject(record, ordinal: ordinal(0), key: key(of: outcomes[0], node: 0), rejection)
        let withIt = Rejection.withDocument(of: rejection, line: root.line, offset: root.byteOffset)
        for index in origins.indices.dropFirst() {
            let record = prepared.record(origins[index], withText: false)
            let node = origins[index].node
            chunks[node].reject(
                record, ordinal: ordinal(node), key: key(of: outcomes[index], node: node), withIt, listed: false)
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
