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
        /// without their array's key is noted (`RecordGroup.absentArrays`).
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

    /// The key of the record `outcome` of `node` and the replaced children (bits) whose arrays
    /// `absent` names (`SourceRecord.absentArrays`): nil when none is replaced, or it was rejected.
    func absentArrays(_ absent: UInt64, of outcome: RecordPreparer.Outcome, node: Int) -> (
        node: Int, key: Value, children: UInt64
    )? {
        let replaced = absent & plans[node].replacedChildren
        guard replaced != 0, case .prepared(let record, _) = outcome else { return nil }
        return (node, preparers[node].entity.key(of: record.values), replaced)
    }

    /// Prepares `document`, read whole, into `batch`: as `DocumentStreamer` prepares a document
    /// while it is read, each element after its parent here, dropping each one's source values
    /// once it is prepared (a large document's records would otherwise be held twice until its end).
    func prepare(_ document: consuming SourceDocument, into batch: inout DocumentBatch) {
        let streamer = DocumentStreamer(preparer: self, batch: DocumentBatch(nodes: 0, handback: batch.handback))
        swap(&streamer.batch, &batch)
        defer { swap(&streamer.batch, &batch) }
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
        /// Its records by index (the root's at 0, element `i`'s at `i + 1`), set as each one ends;
        /// one not prepared is `settled`, its outcome in `unprepared`.
        private(set) var members: [RecordGroup.Member] = []
        /// The outcomes of the records that were not prepared, by index (nil: not tried, under
        /// a rejected element).
        private var unprepared: [Int: RecordPreparer.Outcome?] = [:]
        /// Its records' objects without the arrays of some replaced children (`RecordGroup.absentArrays`).
        var absentArrays: [(node: Int, key: Value, children: UInt64)] = []

        /// This document, leaving an empty one in its place.
        mutating func take() -> PreparedDocument {
            var taken = PreparedDocument()
            swap(&self, &taken)
            return taken
        }

        /// No record: what `take` leaves.
        private init() {}

        /// A document whose root is `root`, its records packed from `packedFrom` bytes, and
        /// their text released as `textRelease` says; with room for `expected` records (the
        /// last document's count, say: a guess, not a limit).
        init(
            root: SourceRecord, packedFrom: Int = Self.packedFrom, textRelease: TextRelease = .kept, expected: Int = 0
        ) {
            origins.reserveCapacity(expected)
            members.reserveCapacity(expected)
            text = root.raw
            packs = root.raw.count >= packedFrom
            switch textRelease {
            case .kept: letsTextGo = false
            case .readAgainFromInput: letsTextGo = packs
            case .copiedTo(let texts): letsTextGo = packs && texts.copy(root.raw, at: root.byteOffset)
            }
            origins.append(
                Origin(node: 0, parent: nil, line: root.line, byteOffset: root.byteOffset, raw: root.raw.indices))
            members.append(RecordGroup.Member(node: 0, holder: nil, outcome: .settled))
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
        mutating func set(_ origin: consuming Origin, _ outcome: consuming RecordPreparer.Outcome?, at index: Int) {
            if origins.count < index {
                let missing = index - origins.count
                origins.append(
                    contentsOf: repeatElement(
                        Origin(node: 0, parent: nil, line: 0, byteOffset: 0, raw: 0..<0), count: missing))
                members.append(
                    contentsOf: repeatElement(
                        RecordGroup.Member(node: 0, holder: nil, outcome: .settled), count: missing)
                )
            }
            let member = RecordGroup.Member(node: origin.node, holder: origin.parent, outcome: .settled)
            if origins.count == index {
                origins.append(origin)
                members.append(member)
            } else {
                origins[index] = origin
                members[index] = member
            }
            keep(outcome, at: index)
        }

        /// Sets the root's outcome, once its object has ended.
        mutating func setRoot(_ outcome: consuming RecordPreparer.Outcome?) { keep(outcome, at: 0) }

        /// Keeps the outcome of record `index` as the document holds it to its end: a prepared
        /// record without the mapped fields, which no one reads once its children have their
        /// parent's key, and with its values packed when the document `packs`.
        private mutating func keep(_ outcome: consuming RecordPreparer.Outcome?, at index: Int) {
            guard case .prepared? = outcome else {
                unprepared[index] = .some(outcome)
                return
            }
            // Taken out of the outcome, not bound from it: a binding copies the record, and
            // retains its values and text once more.
            guard case .prepared(var record, _)? = outcome.take() else { return }
            if letsTextGo {
                record.packLettingTextGo()
            } else if packs {
                record.pack()
            }
            members[index].setRecord(record)
        }

        /// Whether every record was prepared: none is rejected.
        var allPrepared: Bool { unprepared.isEmpty }

        /// The outcome of record `index` if it was not prepared: nil for one prepared, `.some(nil)`
        /// for one not tried.
        func unpreparedOutcome(at index: Int) -> RecordPreparer.Outcome?? { unprepared[index] }

        /// Its members, leaving none: moved out, not copied.
        mutating func takeMembers() -> [RecordGroup.Member] {
            var taken: [RecordGroup.Member] = []
            swap(&taken, &members)
            return taken
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

    /// The group of `prepared`, whose members are numbered, per node, from `firstOrdinals`: a
    /// record under a rejected element is rejected with it; with `documents: whole`, one problem
    /// rejects them all.
    func finish(_ prepared: consuming PreparedDocument, pointers: PointerTable, firstOrdinals: [Int]) -> RecordGroup {
        let absentArrays = prepared.absentArrays
        guard !prepared.allPrepared else {
            return RecordGroup(members: prepared.takeMembers(), pointers: pointers, absentArrays: absentArrays)
        }
        let origins = prepared.origins
        var members = prepared.takeMembers()
        func pointer(_ index: Int) -> String { index == 0 ? "" : pointers[index - 1] }
        // Per record: the record whose rejection it shares (itself, or the nearest rejected one
        // above it); -1 for none.
        var causes = [Int32](repeating: -1, count: members.count)
        var problems: [DocumentProblem] = []
        var rejections: [Int: (key: Value?, rejection: Rejection)] = [:]
        for index in members.indices {
            if let holder = members[index].holder, causes[holder] >= 0 {
                causes[index] = causes[holder]
            } else if case .rejected(let key, let rejection)?? = prepared.unpreparedOutcome(at: index) {
                causes[index] = Int32(index)
                rejections[index] = (key, rejection)
                problems.append(rejection.problem(at: pointer(index)))
            }
        }
        var next = firstOrdinals
        func ordinal(_ node: Int) -> Int {
            defer { next[node] += 1 }
            return next[node]
        }
        if rejections[0] != nil || (policy == .whole && !problems.isEmpty) {
            rejectWhole(prepared, &members, keys: rejections.mapValues(\.key), problems: problems, ordinal: ordinal)
        } else {
            for index in members.indices {
                let node = members[index].node
                if causes[index] < 0 {
                    _ = ordinal(node)
                    continue
                }
                let reject: ParseReject
                if let own = rejections[index] {
                    reject = ParseReject(
                        prepared.record(origins[index]), ordinal: ordinal(node), key: own.key,
                        own.rejection.located(at: pointer(index)))
                } else {
                    // Prepared or not, it goes with the element above it.
                    _ = members[index].takeRecord()
                    reject = ParseReject(
                        prepared.record(origins[index], withText: false), ordinal: ordinal(node), key: nil,
                        .withHolder(of: rejections[Int(causes[index])]?.rejection, at: pointer(index)), listed: false)
                }
                members[index].outcome = .rejected(reject)
            }
        }
        return RecordGroup(members: members, pointers: pointers, absentArrays: absentArrays)
    }

    /// Rejects every record of the document: one listed line for the document (its first
    /// bytes, every problem), the others counted only.
    private func rejectWhole(
        _ prepared: borrowing PreparedDocument, _ members: inout [RecordGroup.Member], keys: [Int: Value?],
        problems: [DocumentProblem], ordinal: (Int) -> Int
    ) {
        let origins = prepared.origins
        let root = origins[0]
        let rejection = Rejection.wholeDocument(records: origins.count, problems: problems)
        let withIt = Rejection.withDocument(of: rejection, line: root.line, offset: root.byteOffset)
        for index in members.indices {
            let node = members[index].node
            let key =
                members[index].takeRecord().map { preparers[node].entity.key(of: $0.values) } ?? keys[index] ?? nil
            var source = prepared.record(origins[index], withText: false)
            if index == 0 { source.raw = SourceRecord.excerpt(of: prepared.text) }
            members[index].outcome = .rejected(
                ParseReject(
                    source, ordinal: ordinal(node), key: key, index == 0 ? rejection : withIt, listed: index == 0))
        }
    }
}
