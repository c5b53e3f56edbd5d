/// The records of the documents of a `CheckedDocuments` to be written, taken out of their
/// groups into one part per node of the source (one write per entity), each in input order:
/// the documents follow one another in every part, so a run of documents is a range of each.
struct DocumentWindows {
    /// A node's records of the documents.
    struct Part {
        let input: Int
        let records: [PreparedRecord]
    }

    let parts: [Part]
    /// What a record rejected while writing costs its document.
    let policy: DocumentPolicy
    /// The documents, their records taken out: what they were made of (nodes, holders, pointers).
    let groups: [RecordGroup]
    /// Per part, per document, the number of its records up to the document's end.
    private let ends: [[Int]]

    /// The windows of `documents`, whose records are moved out (not copied: a copy retains each
    /// record's values and text once more).
    init(taking documents: inout CheckedDocuments) {
        var records = documents.nodes.map { _ in [PreparedRecord]() }
        var ends = documents.nodes.map { _ in [Int]() }
        // Room for each part's records at once: grown by doubling, they would be moved again and again.
        var counts = documents.nodes.map { _ in 0 }
        for document in documents.groups.indices {
            // By index: a member copied out would retain its record.
            for member in documents.groups[document].members.indices
            where documents.groups[document].members[member].outcome.isPrepared {
                counts[documents.groups[document].members[member].node] += 1
            }
        }
        for node in documents.nodes {
            records[node].reserveCapacity(counts[node])
            ends[node].reserveCapacity(documents.groups.count)
        }
        for document in documents.groups.indices {
            for member in documents.groups[document].members.indices {
                let node = documents.groups[document].members[member].node
                if let record = documents.groups[document].members[member].takeRecord(leaving: .inWindow) {
                    records[node].append(record)
                }
            }
            for node in documents.nodes { ends[node].append(records[node].count) }
        }
        parts = documents.nodes.map { Part(input: documents.root + $0, records: records[$0]) }
        self.ends = ends
        groups = documents.groups
        policy = documents.policy
    }

    var documentCount: Int { groups.count }

    /// The records of document `document`, in every part.
    func recordCount(of document: Int) -> Int {
        ends.reduce(0) { $0 + $1[document] - (document == 0 ? 0 : $1[document - 1]) }
    }

    /// The document of the record at `position` in part `part`.
    func document(at position: Int, in part: Int) -> Int {
        let ends = ends[part]
        var low = 0, high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > position { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Where the records of documents `documents` are in part `part`.
    func positions(of documents: Range<Int>, in part: Int) -> Range<Int> {
        let ends = ends[part]
        let start = documents.lowerBound == 0 ? 0 : ends[documents.lowerBound - 1]
        return start..<(documents.isEmpty ? start : ends[documents.upperBound - 1])
    }

    /// The written members of `document`, in its order: each one's index in its group, its
    /// part and its position there.
    func members(of document: Int) -> [(member: Int, part: Int, position: Int)] {
        var next = parts.indices.map { positions(of: document..<document + 1, in: $0).lowerBound }
        var members: [(member: Int, part: Int, position: Int)] = []
        for (index, member) in groups[document].members.enumerated() where member.outcome.isInWindow {
            members.append((index, member.node, next[member.node]))
            next[member.node] += 1
        }
        return members
    }

    /// The JSON pointer in its document of the record at `position` in part `part`.
    func pointer(at position: Int, in part: Int) -> String {
        let document = document(at: position, in: part)
        let member = members(of: document).first { $0.part == part && $0.position == position }?.member ?? 0
        return groups[document].pointer(of: member)
    }
}
