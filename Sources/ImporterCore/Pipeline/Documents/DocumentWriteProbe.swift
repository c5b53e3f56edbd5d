/// Finds, before documents are written, the records the store would reject under the version
/// rules (a record based on a version that is not the stored one, a key already stored in
/// `mode: insert`), so that such a record rejects its whole document (`documents: whole`), or
/// its element with the elements under it (`partial`), and nothing of that is written
/// (docs/documents.md#rejections). Only records whose outcome depends on more than the stored
/// content are looked up: a blind upsert is never rejected by the rules.
struct DocumentWriteProbe {
    let reader: any ItemQuerying
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

    /// Per part of `documents`, the records of documents `slice` not to be written, in order.
    func exclusions(in documents: CheckedDocuments, slice: Range<Int>) -> [[Exclusion]] {
        var exclusions: [[Exclusion]] = documents.parts.map { _ in [] }
        // Without `mode: insert`, records can be rejected only where versions are checked.
        let mayReject = rules.map { $0.mode == .insert || $0.versions != .ignore }
        guard mayReject.contains(true) else { return exclusions }
        for document in slice {
            var failures: [(part: Int, position: Int, rejection: Rejection)] = []
            for part in documents.parts.indices where mayReject[part] {
                let rules = rules[part]
                for position in documents.positions(of: document..<document + 1, in: part)
                where !rules.isBlindUpsert(documents.parts[part].records[position].values) {
                    if let rejection = rejection(of: documents.parts[part].records[position].values, part: part) {
                        failures.append((part, position, rejection))
                    }
                }
            }
            guard !failures.isEmpty else { continue }
            let root = documents.positions(of: document..<document + 1, in: 0).first
            let whole = documents.policy == .whole || failures.contains { $0.part == 0 }
            if whole {
                excludeWhole(document, documents, failures: failures, root: root, into: &exclusions)
                continue
            }
            var rejectedPointers: [String] = []
            for failure in failures {
                let pointer = documents.parts[failure.part].pointers[failure.position]
                rejectedPointers.append(pointer)
                let rejection = failure.rejection
                exclusions[failure.part].append(
                    Exclusion(
                        position: failure.position,
                        rejection: Rejection(
                            stage: rejection.stage, reason: rejection.reason, field: rejection.field,
                            target: rejection.target, "\(pointer): \(rejection.message)"),
                        listed: true))
            }
            for part in documents.parts.indices {
                for position in documents.positions(of: document..<document + 1, in: part) {
                    let pointer = documents.parts[part].pointers[position]
                    guard let holder = rejectedPointers.first(where: { pointer.hasPrefix($0 + "/") }) else { continue }
                    let cause = failures.first { documents.parts[$0.part].pointers[$0.position] == holder }?.rejection
                    exclusions[part].append(
                        Exclusion(position: position, rejection: .withHolder(of: cause, at: pointer), listed: false))
                }
            }
        }
        for part in exclusions.indices where exclusions[part].count > 1 {
            exclusions[part].sort { $0.position < $1.position }
        }
        return exclusions
    }

    /// What the rules would reject `values` of `part`'s entity for, judged against the stored
    /// item; nil when they would not, or when the store cannot be read (the write then meets
    /// the same store, and its failure stops the run).
    private func rejection(of values: [Value], part: Int) -> Rejection? {
        let entity = entities[part]
        let stored: [Value]?
        do { stored = try reader.fetch(entity.key(of: values), of: entity) } catch { return nil }
        guard case .reject(let reason, let message) = rules[part].decide(values, stored: stored).decision else {
            return nil
        }
        return Rejection(stage: .write, reason: reason, message)
    }

    /// Every record of `document`: its root listed with every problem, the others counted.
    private func excludeWhole(
        _ document: Int, _ documents: CheckedDocuments,
        failures: [(part: Int, position: Int, rejection: Rejection)], root: Int?, into exclusions: inout [[Exclusion]]
    ) {
        let problems = failures.map {
            $0.rejection.problem(at: documents.parts[$0.part].pointers[$0.position])
        }
        let recordCount = documents.recordCount(of: document)
        // The root lists the document; were it not written by this run (it always is), the first failure.
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
