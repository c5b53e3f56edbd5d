/// The rejections of a document and of the records rejected with it (docs/documents.md#rejections).
extension Rejection {
    /// The rejection of a document of `records` records, listed once, on its root, with every
    /// problem found in it.
    static func wholeDocument(records: Int, problems: [DocumentProblem]) -> Rejection {
        let first = problems[0].rejection
        let shown = problems.prefix(3).map { problem in
            // The field is in the message already: `/lines/1: quantity: 0 is below the minimum 1`.
            var pointer = problem.pointer
            if let field = problem.rejection.field, pointer.hasSuffix("/" + field) {
                pointer.removeLast(field.count + 1)
            }
            return "\(pointer.isEmpty ? "/" : pointer): \(problem.rejection.message)"
        }
        var rejection = Rejection(
            stage: first.stage, reason: first.reason,
            "the document is rejected whole (documents: whole), \(records) record(s): \(problems.count) problem(s): \(shown.joined(separator: "; "))\(problems.count > 3 ? "; …" : "") (all of them under \"problems\")"
        )
        rejection.problems = problems
        return rejection
    }

    /// The rejection of a record rejected with its document, which starts at `line` and
    /// `offset`: counted, not listed.
    static func withDocument(of cause: Rejection, line: Int, offset: Int64) -> Rejection {
        var rejection = Rejection(
            stage: cause.stage, reason: cause.reason,
            "rejected with its document (line \(line), offset \(offset)), which rejects.ndjson lists")
        rejection.documentOffset = offset
        return rejection
    }

    /// The rejection of an element rejected with the element holding it (`documents: partial`),
    /// at `pointer`: counted, not listed.
    static func withHolder(of cause: Rejection?, at pointer: String) -> Rejection {
        Rejection(
            stage: cause?.stage ?? .validate, reason: cause?.reason ?? .malformed,
            "\(pointer): rejected with the element holding it, which rejects.ndjson lists")
    }

    /// This rejection of the element at `pointer`, which its message starts with (`/lines/1: …`);
    /// the root's (an empty pointer) as it is.
    func located(at pointer: String) -> Rejection {
        guard !pointer.isEmpty else { return self }
        return Rejection(stage: stage, reason: reason, field: field, target: target, "\(pointer): \(message)")
    }

    /// The problem this rejection is at `pointer` in its document (`/lines/1/quantity`).
    func problem(at pointer: String) -> DocumentProblem {
        DocumentProblem(pointer: pointer + (field.map { "/" + $0 } ?? ""), rejection: self)
    }
}
