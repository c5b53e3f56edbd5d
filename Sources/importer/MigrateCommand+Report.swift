import ArgumentParser
import Foundation
import ImporterCore

extension MigrateCommand {
    /// What a migration did, for `report`.
    struct Finished {
        var store: String
        var plan: MigrationPlan
        var status: MigrationReport.Status
        var steps: [MigrationReport.Step]
        var failures: [MigrationFailure]
        /// Each failing item's values as stored before the migration (parallel to `failures`).
        var items: [[Value]?]
        /// The summary's last lines: what happened and what to do.
        var conclusion: String
    }

    /// Writes rejects.ndjson and migration.json, prints the summary and exits with the status's
    /// code: 3 when nothing could be migrated, 1 with items left out (or that a dry run would fail).
    func report(_ finished: Finished, config: PipelineConfig, started: Date, reportDirectory: String) throws {
        try FileManager.default.createDirectory(atPath: reportDirectory, withIntermediateDirectories: true)
        var rejects = ""
        for (failure, values) in zip(finished.failures, finished.items) {
            let item = values.flatMap { values in
                finished.plan.from.entity(named: failure.entity).map {
                    zip($0.attributes.map(\.name), values).map { ($0, $1) }
                }
            }
            rejects += MigrationReport.rejectLine(
                entity: failure.entity, key: failure.key, rejection: failure.rejection,
                toVersion: failure.toVersion, item: item)
        }
        try OutputFile.write(Data(rejects.utf8), to: FilePaths.join(reportDirectory, "rejects.ndjson"))
        let plan = finished.plan
        try MigrationReport(
            pipeline: config.file, store: finished.store, model: plan.to.name, from: plan.from.version,
            to: plan.to.version, status: finished.status, steps: finished.steps,
            startedAt: started, finishedAt: Date()
        ).write(to: reportDirectory)
        var summary = ""
        for step in finished.steps {
            summary +=
                "\(plan.to.name) \(step.from) → \(step.to): \(step.items) items, \(step.failed) \(dryRun ? "would fail" : "failed")\n"
        }
        summary += finished.conclusion + "\nreports: \(reportDirectory)\n"
        FileHandle.standardError.write(Data(summary.utf8))
        for failure in finished.failures.prefix(10) {
            FileHandle.standardError.write(
                Data("  \(failure.entity) \(failure.key): \(failure.rejection.message)\n".utf8))
        }
        if finished.failures.count > 10 {
            FileHandle.standardError.write(
                Data("  … and \(finished.failures.count - 10) more in rejects.ndjson\n".utf8))
        }
        switch finished.status {
        case .rolledBack, .stopped: throw ExitCode(3)
        case .migratedWithRejects: throw ExitCode(1)
        case .dryRun where !finished.failures.isEmpty: throw ExitCode(1)
        default: break
        }
    }

    /// Prints the plan's steps (unless quiet).
    func printPlan(_ plan: MigrationPlan) {
        if !output.quiet {
            FileHandle.standardError.write(Data(plan.steps.map(\.description).joined(separator: "\n").utf8))
        }
    }
}
