import ArgumentParser
import Foundation
import ImporterCore

struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a pipeline's store to another model version, step by step.",
        discussion: """
            Each step from the store's version to the next is inferred from the two model files \
            (renamedFrom, added and removed attributes, widening types) or declared with convert:. \
            Anything else is refused before anything is written.
            SQLite: one transaction. An item that a step cannot migrate rolls the whole migration \
            back (exit 3) and is listed in rejects.ndjson; with --allow-rejects such items go to \
            rejects.ndjson and the rest migrate (exit 1).
            DynamoDB: every item is checked first, and if any cannot be migrated nothing is written \
            (exit 3; --allow-rejects deletes them instead, exit 1). Then items are rewritten one by \
            one, each conditional on its version; an interrupted migration resumes when run again.
            """)

    @OptionGroup var pipeline: PipelineOptions

    @Option(help: "The model version to migrate to (default: the newest in the model directory).")
    var to: Int?

    @Flag(help: "Print the plan and how many items each step would fail; change nothing.")
    var dryRun = false

    @Flag(help: "Leave out the items a step cannot migrate (they go to rejects.ndjson) instead of changing nothing.")
    var allowRejects = false

    @Flag(help: "Accept a model file whose checksum differs from the one the store recorded for its version; recorded in the history (SQLite).")
    var acceptModelChange = false

    @OptionGroup var output: OutputOptions

    func run() throws {
        let (config, versions) = try exitOnConfigurationError { () -> (PipelineConfig, VersionedModel) in
            let (config, versions, _) = try pipeline.loadVersions(requireInputs: false)
            return (config, versions)
        }
        let reportDirectory = output.reportDir ?? config.reportDirectory
        do {
            switch config.destination.kind {
            case .sqlite: try migrateSQLite(config, versions: versions, reportDirectory: reportDirectory)
            case .dynamodb: try migrateDynamoDB(config, versions: versions, reportDirectory: reportDirectory)
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            let outcome = config.destination.kind == .sqlite
                ? "the migration stopped and was rolled back"
                : "the migration stopped (every item is whole, in the old version or the new; if it had begun, run importer migrate again to finish it)"
            FileHandle.standardError.write(Data("importer: \(outcome): \(error)\n".utf8))
            throw ExitCode(3)
        }
    }

    /// The version to migrate to: `--to`, else the newest.
    func target(_ versions: VersionedModel) -> Int { to ?? versions.newest.version }

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
                finished.plan.from.entity(named: failure.entity).map { zip($0.attributes.map(\.name), values).map { ($0, $1) } }
            }
            rejects += MigrationReport.rejectLine(entity: failure.entity, key: failure.key, rejection: failure.rejection,
                                                  toVersion: failure.toVersion, item: item)
        }
        try Data(rejects.utf8).write(to: URL(fileURLWithPath: reportDirectory).appendingPathComponent("rejects.ndjson"))
        let plan = finished.plan
        try MigrationReport(pipeline: config.file, store: finished.store, model: plan.to.name, from: plan.from.version,
                            to: plan.to.version, status: finished.status, steps: finished.steps,
                            startedAt: started, finishedAt: Date()).write(to: reportDirectory)
        var summary = ""
        for step in finished.steps {
            summary += "\(plan.to.name) \(step.from) → \(step.to): \(step.items) items, \(step.failed) \(dryRun ? "would fail" : "failed")\n"
        }
        summary += finished.conclusion + "\nreports: \(reportDirectory)\n"
        FileHandle.standardError.write(Data(summary.utf8))
        for failure in finished.failures.prefix(10) {
            FileHandle.standardError.write(Data("  \(failure.entity) \(failure.key): \(failure.rejection.message)\n".utf8))
        }
        if finished.failures.count > 10 {
            FileHandle.standardError.write(Data("  … and \(finished.failures.count - 10) more in rejects.ndjson\n".utf8))
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
        if !output.quiet { FileHandle.standardError.write(Data(plan.steps.map(\.description).joined(separator: "\n").utf8)) }
    }
}
