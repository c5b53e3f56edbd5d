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

    @Flag(
        help:
            "Accept a model file whose checksum differs from the one the store recorded for its version; recorded in the history (SQLite)."
    )
    var acceptModelChange = false

    @OptionGroup var output: OutputOptions

    @OptionGroup var access: StoreAccessOptions

    func run() throws {
        let (config, versions) = try exitOnConfigurationError { () -> (PipelineConfig, VersionedModel) in
            let (config, versions, _) = try pipeline.loadVersions(requireInputs: false)
            return (config, versions)
        }
        let reportDirectory = output.reportDir ?? config.reportDirectory
        let request = StoreLockRequest(dryRun ? .shared : .exclusive, command: "migrate", wait: access.wait)
        let lock = try exitOnConfigurationError {
            try DestinationOpener.lock(config, request, reportDirectory: reportDirectory)
        }
        defer { lock?.release() }
        do {
            try migrate(config, versions: versions, reportDirectory: reportDirectory)
        } catch let error as ExitCode {
            throw error
        } catch {
            let outcome =
                config.destination.kind == .sqlite
                ? "the migration stopped and was rolled back"
                : "the migration stopped (every item is whole, in the old version or the new; if it had begun, run importer migrate again to finish it)"
            FileHandle.standardError.write(Data("importer: \(outcome): \(error)\n".utf8))
            throw ExitCode(3)
        }
    }

    /// Plans the steps from the version the store holds (or finishes an unfinished migration),
    /// has the store migrate, and reports.
    private func migrate(_ config: PipelineConfig, versions: VersionedModel, reportDirectory: String) throws {
        let started = Date()
        let (target, plan) = try exitOnConfigurationError { () -> (MigrationTarget, MigrationPlan?) in
            let target = try DestinationOpener.openForMigration(
                config, dryRun: dryRun, reportDirectory: reportDirectory)
            guard
                let recorded = try target.store.recordedVersion(
                    in: versions, acceptModelChange: acceptModelChange && !dryRun)
            else {
                throw ConfigurationError(
                    file: config.file, key: "destination",
                    "no \(versions.newest.name) in \(target.name); new stores start at the pipeline's model version, so there is nothing to migrate"
                )
            }
            if let migratingTo = recorded.migratingTo, migratingTo != self.target(versions) {
                throw ConfigurationError(
                    file: config.file, key: "destination",
                    "the store is being migrated to version \(migratingTo) and that migration has not finished; finish it first with --to \(migratingTo)"
                )
            }
            if recorded.model.version == self.target(versions) && recorded.migratingTo == nil { return (target, nil) }
            return (target, try MigrationPlan(versions, from: recorded.model.version, to: self.target(versions)))
        }
        defer { target.close() }
        guard let plan else {
            print(
                "\(target.name): already at \(versions.newest.name) version \(self.target(versions)); nothing to migrate"
            )
            return
        }
        printPlan(plan)
        var settings = MigrationSettings(
            checkpointFile: FilePaths.join(reportDirectory, "migration-checkpoint.json"))
        settings.dryRun = dryRun
        settings.allowRejects = allowRejects
        let result = try target.store.migrate(plan, settings: settings)
        let failures = result.outcome.failures
        try report(
            Finished(
                store: target.name, plan: plan, status: Self.reportStatus(result.status),
                steps: result.outcome.steps.map {
                    .init(from: $0.from, to: $0.to, items: $0.items, failed: $0.failures.count)
                },
                failures: failures, items: failures.map(\.item),
                conclusion: conclusion(result, plan: plan, target: target)),
            config: config, started: started, reportDirectory: reportDirectory)
    }

    private static func reportStatus(_ status: MigrationResult.Status) -> MigrationReport.Status {
        switch status {
        case .migrated: .migrated
        case .migratedWithRejects: .migratedWithRejects
        case .refused: .rolledBack
        case .dryRun: .dryRun
        case .stopped: .stopped
        }
    }

    /// The summary's last lines: what happened and what to do.
    private func conclusion(_ result: MigrationResult, plan: MigrationPlan, target: MigrationTarget) -> String {
        let failures = result.outcome.failures.count
        var text =
            switch result.status {
            case .migrated: "migrated \(target.name) to version \(plan.to.version)"
            case .migratedWithRejects:
                "migrated \(target.name) to version \(plan.to.version); \(failures) items that could not be migrated were deleted (see rejects.ndjson)"
            case .refused:
                "\(target.refusal): \(failures) items cannot be migrated, so \(target.name) stays at version \(plan.from.version). Fix them (see rejects.ndjson), add convert.otherwise or a default, or run with --allow-rejects to delete them"
            case .dryRun: "dry run: nothing was changed"
            case .stopped:
                "the migration stopped part-way: \(failures) items changed since they were checked and cannot be migrated. Every item is whole, in version \(plan.from.version) or \(plan.to.version); run and export refuse the store until the migration ends. Fix the items, or run importer migrate --allow-rejects to finish without them"
            }
        if result.resumed {
            text = "resumed the unfinished migration (counts are from the check that began it)\n" + text
        }
        for table in result.tablesLeft {
            text +=
                "\ntable \(table) is no longer in the model; it was left in place (delete it once you no longer need it)"
        }
        return text
    }

    /// The version to migrate to: `--to`, else the newest.
    func target(_ versions: VersionedModel) -> Int { to ?? versions.newest.version }
}
