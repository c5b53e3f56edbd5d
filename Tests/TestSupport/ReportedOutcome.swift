import Foundation

/// What a run's report directory says it did, to compare two runs of the same inputs (an
/// interrupted and resumed one against one never stopped): its totals, its deletes.ndjson
/// (sorted) and the entity and key of each line of rejects.ndjson.
public struct ReportedOutcome: Equatable {
    public let totals: [String: Int]
    public let deletes: [String]
    public let rejects: [String]
    /// Whether deletes.ndjson lists every item once.
    public let deletesListedOnce: Bool

    public init(reports: String) throws {
        let totals = try ImporterProcess.report(in: reports).object("totals")
        var counts: [String: Int] = [:]
        for count in ["read", "inserted", "updated", "unchanged", "deleted", "rejected", "notWritten", "unknown"] {
            counts[count] = totals.int(count)
        }
        self.totals = counts
        let deletes = try String(contentsOfFile: reports + "/deletes.ndjson", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        deletesListedOnce = Set(deletes).count == deletes.count
        self.deletes = deletes.sorted()
        rejects = try ImporterProcess.rejects(in: reports).map { "\($0["entity"] ?? "") \($0["key"] ?? "")" }
    }
}
