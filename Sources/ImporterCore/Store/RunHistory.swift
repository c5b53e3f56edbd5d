import Foundation

/// A store that keeps the reports of the runs against it (`importer inspect` lists them).
package protocol RunHistory: AnyObject, Sendable {
    /// Records a finished run's report.
    func recordRun(_ report: RunReport) throws
    /// The latest runs, newest first.
    func recentRuns(limit: Int) throws -> [RunSummary]
}

/// A finished run as a store's history keeps it: when, how it ended and its totals.
public struct RunSummary: Sendable, Equatable {
    public var runId: String
    /// The pipeline file, as the run named it.
    public var pipeline: String
    public var started: Date
    public var finished: Date
    /// How the run ended; nil for a status this version does not know.
    public var status: RunStatus?
    public var modelVersion: Int
    public var read: Int
    public var inserted: Int
    public var updated: Int
    public var unchanged: Int
    public var rejected: Int
    public var rolledBack: Int

    public init(
        runId: String, pipeline: String, started: Date, finished: Date, status: RunStatus?, modelVersion: Int,
        read: Int, inserted: Int, updated: Int, unchanged: Int, rejected: Int, rolledBack: Int
    ) {
        self.runId = runId
        self.pipeline = pipeline
        self.started = started
        self.finished = finished
        self.status = status
        self.modelVersion = modelVersion
        self.read = read
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.rejected = rejected
        self.rolledBack = rolledBack
    }
}
