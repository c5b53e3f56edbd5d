/// Adds counts read from a report file without trapping: a sum past the largest count (a
/// damaged or edited report) is a `ConfigurationError` that names the file and the count.
struct CheckedSum {
    /// The report whose counts are being added.
    let file: String

    /// The counts that `Counts` sums, by name.
    private static let fields: [(name: String, path: WritableKeyPath<Counts, Int> & Sendable)] = [
        ("read", \.read), ("inserted", \.inserted), ("updated", \.updated), ("unchanged", \.unchanged),
        ("rejected", \.rejected), ("rolledBack", \.rolledBack), ("notWritten", \.notWritten), ("unknown", \.unknown),
        ("conflicts", \.conflicts), ("deleted", \.deleted),
        ("retries", \.retries),
    ]

    /// `sum + more`; `what` names the count, e.g. `totals.read`.
    func add(_ sum: Int, _ more: Int, _ what: @autoclosure () -> String) throws -> Int {
        let (result, overflow) = sum.addingReportingOverflow(more)
        guard !overflow else {
            throw ConfigurationError(
                file: file,
                "\(what()) is \(more); added to \(sum) from the other reports it is past the largest count (\(Int.max)); is the report damaged?"
            )
        }
        return result
    }

    /// `sum + more`, every count checked; `what` names them, e.g. `entities[Location].counts`.
    func add(_ sum: Counts, _ more: Counts, _ what: String) throws -> Counts {
        var result = sum
        for field in Self.fields {
            result[keyPath: field.path] = try add(
                sum[keyPath: field.path], more[keyPath: field.path], "\(what).\(field.name)")
        }
        if sum.consumedWCU != nil || more.consumedWCU != nil {
            result.consumedWCU = (sum.consumedWCU ?? 0) + (more.consumedWCU ?? 0)
        }
        if sum.consumedRCU != nil || more.consumedRCU != nil {
            result.consumedRCU = (sum.consumedRCU ?? 0) + (more.consumedRCU ?? 0)
        }
        return result
    }
}
