/// A store that keeps the reports of the runs against it (`importer inspect` lists them).
public protocol RunHistory: AnyObject, Sendable {
    /// Records a finished run's report.
    func recordRun(_ report: RunReport) throws
    /// The latest runs, newest first: their summary fields by name.
    func recentRuns(limit: Int) throws -> [[String: String]]
}
