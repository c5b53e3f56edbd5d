/// Finds, before documents are written where the store cannot undo them (sent parents first,
/// rows staged in bulk), the records the store would reject under the version rules (a record
/// based on a version that is not the stored one, a key already stored in `mode: insert`), so
/// that such a record rejects its whole document (`documents: whole`), or its element with the
/// elements under it (`partial`), and nothing of that is written (docs/documents.md#rejections).
/// What the store refuses as it writes is excluded the same way (`exclusions(for:in:)`), and the
/// documents written again without it. Only records whose outcome depends on more than the
/// stored content are looked up: a blind upsert is never rejected by the rules.
struct DocumentWriteProbe {
    /// The stored items with the keys given, of the entity given (nil where none): a store's
    /// `BatchFetching`, else its reads one by one.
    let fetch: (_ keys: [Value], _ entity: Entity) throws -> [[Value]?]
    /// The entity and the version rules of each input of the source, the root's first.
    let entities: [Entity]
    let rules: [VersionRules]

    /// A record not to be written, and its rejection.
    struct Exclusion {
        let position: Int
        let rejection: Rejection
        /// Whether rejects.ndjson lists it (not one rejected with its document or holder).
        let listed: Bool
    }

    /// A record the rules (or the store, as it wrote it) reject.
    typealias Failure = (part: Int, position: Int, rejection: Rejection)

    /// The records of documents `slice` that the rules would reject, by part and position.
    func failures(in documents: DocumentWindows, slice: Range<Int>) -> [Failure] {
        documents.parts.indices.flatMap { part in
            rejections(in: documents, slice: slice, part: part).map { (part, $0.position, $0.rejection) }
        }
    }

    /// Per part of `documents`, the records not to be written for `failures`, in order: a
    /// failure's whole document (`documents: whole`, or a failed root), else the failed element
    /// with the elements under it. `policy` in place of the documents' own.
    static func exclusions(for failures: [Failure], in documents: DocumentWindows, policy: DocumentPolicy? = nil)
        -> [[Exclusion]]
    {
        var exclusions: [[Exclusion]] = documents.parts.map { _ in [] }
        let byDocument = Dictionary(grouping: failures) { documents.document(at: $0.position, in: $0.part) }
        for (document, failures) in byDocument.sorted(by: { $0.key < $1.key }) {
            let root = documents.positions(of: document..<document + 1, in: 0).first
            if (policy ?? documents.policy) == .whole || failures.contains(where: { $0.part == 0 }) {
                excludeWhole(document, documents, failures: failures, root: root, into: &exclusions)
            } else {
                excludeElements(document, documents, failures: failures, into: &exclusions)
            }
        }
        for part in exclusions.indices where exclusions[part].count > 1 {
            // A failed element under another failed element is excluded once, as listed.
            exclusions[part].sort { ($0.position, $0.listed ? 0 : 1) < ($1.position, $1.listed ? 0 : 1) }
            var seen = Set<Int>()
            exclusions[part].removeAll { !seen.insert($0.position).inserted }
        }
        return exclusions
    }

    /// `first` and the exclusions of `second` at other positions, in order.
    static func merged(_ first: [Exclusion], _ second: [Exclusion]) -> [Exclusion] {
        var byPosition = Dictionary(first.map { ($0.position, $0) }, uniquingKeysWith: { kept, _ in kept })
        for exclusion in second where byPosition[exclusion.position] == nil {
            byPosition[exclusion.position] = exclusion
        }
        return byPosition.values.sorted { $0.position < $1.position }
    }

    /// The records of `part` in documents `slice` that the rules would reject, judged against
    /// the stored items, read together. Only records that are not blind upserts are read: the
    /// rules reject nothing else. None when the store cannot be read (the write then meets the
    /// same store, and its failure stops the run).
    private func rejections(in documents: DocumentWindows, slice: Range<Int>, part: Int)
        -> [(position: Int, rejection: Rejection)]
    {
        let rules = rules[part], entity = entities[part]
        // Without `mode: insert`, records can be rejected only where versions are checked.
        guard rules.mode == .insert || rules.versions != .ignore else { return [] }
        let records = documents.parts[part].records, versionIndex = entity.versionIndex
        // Each record's version read in place: a copy of the record would retain its values
        // and its text, which the threads before this one wrote last.
        let positions = records.withUnsafeBufferPointer { records in
            documents.positions(of: slice, in: part).filter {
                !rules.isBlindUpsert(version: records[$0].value(at: versionIndex))
            }
        }
        guard !positions.isEmpty else { return [] }
        let stored: [[Value]?]
        do { stored = try fetch(positions.map { entity.key(of: records[$0].values) }, entity) } catch { return [] }
        return zip(positions, stored).compactMap { position, stored in
            guard
                case .reject(let reason, let message) = rules.decide(records[position].values, stored: stored).decision
            else { return nil }
            return (position, Rejection(stage: .write, reason: reason, message))
        }
    }

    /// `documents: partial`: each rejected element, listed, and the elements under it, counted.
    private static func excludeElements(
        _ document: Int, _ documents: DocumentWindows, failures: [Failure], into exclusions: inout [[Exclusion]]
    ) {
        let group = documents.groups[document]
        // Per member, the failure that excludes it: its own, or that of the nearest one above it.
        var causes: [Int: Rejection] = [:]
        for (member, part, position) in documents.members(of: document) {
            let pointer = group.pointer(of: member)
            if let failure = failures.first(where: { $0.part == part && $0.position == position }) {
                causes[member] = failure.rejection
                exclusions[part].append(
                    Exclusion(position: position, rejection: failure.rejection.located(at: pointer), listed: true))
            } else if let holder = group.members[member].holder, let cause = causes[holder] {
                causes[member] = cause
                exclusions[part].append(
                    Exclusion(position: position, rejection: .withHolder(of: cause, at: pointer), listed: false))
            }
        }
    }

    /// Every record of `document`: its root listed with every problem, the others counted.
    private static func excludeWhole(
        _ document: Int, _ documents: DocumentWindows,
        failures: [Failure], root: Int?, into exclusions: inout [[Exclusion]]
    ) {
        let problems = failures.map { $0.rejection.problem(at: documents.pointer(at: $0.position, in: $0.part)) }
        let recordCount = documents.recordCount(of: document)
        // The root lists the document; the first failure when the root is not in this run's
        // writes (a run resuming from a checkpoint an older version saved inside the document).
        let listed: (part: Int, position: Int) = root.map { (0, $0) } ?? (failures[0].part, failures[0].position)
        let start = documents.parts[listed.part].records[listed.position]
        let withIt = Rejection.withDocument(of: failures[0].rejection, line: start.line, offset: start.byteOffset)
        for part in documents.parts.indices {
            for position in documents.positions(of: document..<document + 1, in: part) {
                let isListed = part == listed.part && position == listed.position
                exclusions[part].append(
                    Exclusion(
                        position: position,
                        rejection: isListed ? .wholeDocument(records: recordCount, problems: problems) : withIt,
                        listed: isListed))
            }
        }
    }
}
