import Foundation
import ImporterCore

/// Checkpoints (docs/writes.md#resume) and the history of runs (`_importer_runs`).
extension StoreConnection {
    func saveCheckpoint(_ checkpoint: Checkpoint, adding rejections: [Checkpoint.WriteRejection]) throws {
        let encoder = JSONEncoder()
        do {
            try beginTransactionIfNeeded()
            try database.execute(
                "INSERT OR REPLACE INTO _importer_checkpoint (id, pipeline, state) VALUES (1, ?, ?)",
                [
                    .string(checkpoint.pipeline),
                    .string(String(decoding: try encoder.encode(checkpoint), as: UTF8.self)),
                ])
            for rejection in rejections {
                try database.execute(
                    "INSERT INTO _importer_checkpoint_rejects (rejection) VALUES (?)",
                    [.string(String(decoding: try encoder.encode(rejection), as: UTF8.self))])
            }
        } catch {
            rollBack()
            throw StoreError.sqlite(error, at: path, "cannot save the checkpoint", operation: "save checkpoint")
        }
    }

    func loadCheckpoint() throws -> Checkpoint? {
        guard let state = try database.strings("SELECT state FROM _importer_checkpoint WHERE id = 1").first else {
            return nil
        }
        let decoder = JSONDecoder()
        var checkpoint = try decoder.decode(Checkpoint.self, from: Data(state.utf8))
        // Stores of older versions have no rejections table.
        let rejections =
            (try? database.strings("SELECT rejection FROM _importer_checkpoint_rejects ORDER BY rowid")) ?? []
        checkpoint.rejections = try rejections.map {
            try decoder.decode(Checkpoint.WriteRejection.self, from: Data($0.utf8))
        }
        return checkpoint
    }

    func clearCheckpoint() throws {
        try database.execute("DELETE FROM _importer_checkpoint", [])
        try database.execute("DELETE FROM _importer_checkpoint_rejects", [])
    }

    /// Appends a finished run to `_importer_runs`.
    func recordRun(_ report: RunReport) throws {
        let t = report.totals
        let texts = [
            report.runId, report.pipeline, ISO8601.format(report.startedAt),
            ISO8601.format(report.finishedAt), report.status.rawValue,
        ]
        let numbers = [report.model.version, t.read, t.inserted, t.updated, t.unchanged, t.rejected, t.rolledBack]
        try database.execute(
            "INSERT INTO _importer_runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            texts.map(Value.string) + numbers.map { .integer(Int64($0)) })
    }

    /// The newest runs first.
    func recentRuns(limit: Int) throws -> [RunSummary] {
        var runs: [RunSummary] = []
        try database.cached(
            """
            SELECT run_id, pipeline, started, finished, status, model_version, read, inserted, updated, unchanged, rejected, rolled_back
            FROM _importer_runs ORDER BY started DESC LIMIT ?
            """
        ).query([.integer(Int64(limit))]) { row in
            let count = { Int(row.int64($0)) }
            runs.append(
                RunSummary(
                    runId: row.text(0) ?? "", pipeline: row.text(1) ?? "", started: Self.date(row.text(2)),
                    finished: Self.date(row.text(3)), status: row.text(4).flatMap(RunReport.Status.init(rawValue:)),
                    modelVersion: count(5), read: count(6), inserted: count(7), updated: count(8), unchanged: count(9),
                    rejected: count(10), rolledBack: count(11)))
        }
        return runs
    }
}
