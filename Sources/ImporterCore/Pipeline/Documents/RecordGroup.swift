/// A document's records as one unit of work (docs/documents.md): its root's, then its
/// elements' in the order they begin, each after the element holding it. Each member was
/// prepared, or rejected with where it was read; the key stage checks a group as a whole, and
/// the write stage writes it whole.
struct RecordGroup: Sendable {
    /// One record of the document.
    struct Member: Sendable {
        private let storedNode: Int32
        private let storedHolder: Int32
        var outcome: Outcome
        /// Its record, while its outcome is `prepared`. Apart from the outcome, so that it can
        /// be moved out (`takeRecord`) rather than copied out of an enum's payload.
        private(set) var record: PreparedRecord?

        init(node: Int, holder: Int?, outcome: Outcome) {
            storedNode = Int32(node)
            storedHolder = Int32(holder ?? -1)
            self.outcome = outcome
        }

        /// Makes it prepared, with `record`.
        mutating func setRecord(_ record: consuming PreparedRecord) {
            self.record = record
            outcome = .prepared
        }

        /// Its node of the document's shape: its input is the source's root input plus `node`.
        var node: Int { Int(storedNode) }
        /// The index of the member whose array holds it; nil for the root.
        var holder: Int? { storedHolder < 0 ? nil : Int(storedHolder) }

        /// Its record, if it was prepared, leaving it `left`: moved out, not copied (a copy
        /// retains its values and text once more).
        mutating func takeRecord(leaving left: Outcome = .settled) -> PreparedRecord? {
            guard case .prepared = outcome else { return nil }
            outcome = left
            return record.take()
        }
    }

    /// What the stages made of a member.
    enum Outcome: Sendable {
        /// Prepared (its record is `Member.record`), and past the key stage to be written.
        case prepared
        /// Rejected while it was prepared, or with the element holding it or the document.
        indirect case rejected(ParseReject)
        /// Not to be written: counted already (past the key stage: rejected, or written by the
        /// interrupted run this one resumes), or not prepared yet (in the read stage).
        case settled
        /// Its record was moved to the write stage's windows (`DocumentWindows`).
        case inWindow

        var isPrepared: Bool { if case .prepared = self { true } else { false } }
        var isInWindow: Bool { if case .inWindow = self { true } else { false } }
    }

    var members: [Member]
    /// The elements' JSON pointers in the document: member `i`'s at `i - 1`.
    let pointers: PointerTable
    /// The members' objects with no key for the arrays of some of their replaced children:
    /// their node, key and children (bits of `SourceRecord.absentArrays`).
    var absentArrays: [(node: Int, key: Value, children: UInt64)] = []

    /// The JSON pointer of member `index` in the document ("" for the root).
    func pointer(of index: Int) -> String { index == 0 ? "" : pointers[index - 1] }
}

/// Consecutive whole documents of a document source, as the read stage hands them on.
struct DocumentBatch: Sendable {
    var groups: [RecordGroup] = []
    /// Per node of the source's shape, the members of `groups` of that node. A member's number
    /// (`PreparedRecord.ordinal`, `ParseReject.ordinal`) counts those of its node in the batch.
    private(set) var counts: [Int]
    /// Where the records go once written, to be freed by the thread that made them.
    let handback: Handback<[PreparedRecord]>

    init(nodes: Int, handback: Handback<[PreparedRecord]>) {
        counts = Array(repeating: 0, count: nodes)
        self.handback = handback
    }

    /// The records of the batch's documents.
    var recordCount: Int { counts.reduce(0, +) }

    /// Adds a document whose members were numbered from `counts`.
    mutating func append(_ group: consuming RecordGroup) {
        for member in group.members.indices { counts[group.members[member].node] += 1 }
        groups.append(group)
    }
}
