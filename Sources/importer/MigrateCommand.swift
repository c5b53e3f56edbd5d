import ArgumentParser
import Foundation
import ImporterCore
import ImporterSQLite

struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a pipeline's store to another model version, step by step, in one transaction.",
        discussion: """
            Each step from the store's version to the next is inferred from the two model files \
            (renamedFrom, added and removed attributes, widening types) or declared with convert:. \
            Anything else is refused before anything is written. An item that a step cannot \
            migrate rolls the whole migration back (exit 3) and is listed in rejects.ndjson; with \
            --allow-rejects such items go to rejects.ndjson and the rest migrate (exit 1).
            """)

    @OptionGroup var pipeline: PipelineOptions

    @Option(help: "The model version to migrate to (default: the newest in the model directory).")
    var to: Int?

    @Flag(help: "Print the plan and how many items each step would fail; change nothing.")
    var dryRun = false

    @Flag(help: "Leave out the items a step cannot migrate (they go to rejects.ndjson) instead of rolling back.")
    var allowRejects = false

    @Flag(help: "Accept a model file whose checksum differs from the one the store recorded for its version; recorded in the history.")
    var acceptModelChange = false

    @OptionGroup var output: OutputOptions

    func run() throws {
        do {
            try migrate()
        } catch let error as ExitCode {
            throw error
        } catch {
            FileHandle.standardError.write(Data("importer: the migration stopped and was rolled back: \(error)\n".utf8))
            throw ExitCode(3)
        }
    }

    private func migrate() throws {
        let started = Date()
        let (config, store, current, plan) = try exitOnConfigurationError { () -> (PipelineConfig, SQLiteStore, Model, MigrationPlan?) in
            let (config, versions, _) = try pipeline.loadVersions(requireInputs: false)
            guard config.destination.kind == .sqlite, let path = config.destination.path else {
                throw ConfigurationError(file: config.file, key: "destination",
                    "importer migrate works on SQLite stores; migrating DynamoDB tables is not available yet (export with the old version, then restore: restore migrates archives of older versions)")
            }
            guard FileManager.default.fileExists(atPath: path) else {
                throw ConfigurationError(file: path, "the store does not exist; a new store starts at the pipeline's model version, so there is nothing to migrate")
            }
            let store = try SQLiteStore(path: path)
            let current = try store.storedModel(in: versions, acceptModelChange: acceptModelChange && !dryRun)
            let target = to ?? versions.newest.version
            if current.version == target { return (config, store, current, nil) }
            return (config, store, current, try MigrationPlan(versions, from: current.version, to: target))
        }
        defer { store.close() }
        guard let plan else {
            print("\(config.destination.path!) is already at \(current.name) version \(current.version); nothing to migrate")
            return
        }
        if !output.quiet { FileHandle.standardError.write(Data(plan.steps.map(\.description).joined(separator: "\n").utf8)) }
        let outcome = try store.migrate(plan, commit: !dryRun)
        var items = outcome.steps.map(\.items)
        let reportDirectory = output.reportDir ?? config.reportDirectory
        try FileManager.default.createDirectory(atPath: reportDirectory, withIntermediateDirectories: true)
        let failures = outcome.failures
        try writeRejects(failures, store: store, plan: plan, to: reportDirectory)
        var status: MigrationReport.Status = dryRun ? .dryRun : failures.isEmpty ? .migrated : .rolledBack
        if !dryRun && !failures.isEmpty {
            if allowRejects {
                let keys = Dictionary(grouping: failures, by: \.entity).mapValues { $0.map(\.key) }
                let again = try store.migrate(plan, commit: true, deleting: keys,
                                              note: "\(failures.count) items left out (--allow-rejects), see rejects.ndjson")
                guard again.failures.isEmpty else {
                    throw StoreError("a second migration without the failed items failed again; the store is unchanged")
                }
                items = again.steps.map(\.items)
                status = .migratedWithRejects
            } else {
                try store.recordFailedMigration(plan, started: started, failedItems: failures.count,
                                                note: "rolled back: \(failures.count) items cannot be migrated, see rejects.ndjson")
            }
        }
        let report = MigrationReport(
            pipeline: config.file, store: config.destination.path!, model: plan.to.name, from: plan.from.version,
            to: plan.to.version, status: status,
            steps: zip(outcome.steps, items).map { .init(from: $0.from, to: $0.to, items: $1, failed: $0.failures.count) },
            startedAt: started, finishedAt: Date())
        try report.write(to: reportDirectory)
        var summary = ""
        for step in report.steps {
            summary += "\(plan.to.name) \(step.from) → \(step.to): \(step.items) items, \(step.failed) \(dryRun ? "would fail" : "failed")\n"
        }
        switch status {
        case .migrated: summary += "migrated \(config.destination.path!) to version \(plan.to.version)\n"
        case .migratedWithRejects: summary += "migrated \(config.destination.path!) to version \(plan.to.version) without \(failures.count) items (see rejects.ndjson)\n"
        case .rolledBack: summary += "rolled back: \(failures.count) items cannot be migrated, so the store is unchanged at version \(plan.from.version). Fix them (see rejects.ndjson), add convert.otherwise or a default, or run with --allow-rejects to leave them out\n"
        case .dryRun: summary += "dry run: nothing was changed\n"
        }
        summary += "reports: \(reportDirectory)\n"
        FileHandle.standardError.write(Data(summary.utf8))
        for failure in failures.prefix(10) {
            FileHandle.standardError.write(Data("  \(failure.entity) \(failure.key): \(failure.rejection.message)\n".utf8))
        }
        if failures.count > 10 { FileHandle.standardError.write(Data("  … and \(failures.count - 10) more in rejects.ndjson\n".utf8)) }
        switch status {
        case .rolledBack: throw ExitCode(3)
        case .migratedWithRejects: throw ExitCode(1)
        case .dryRun where !failures.isEmpty: throw ExitCode(1)
        default: break
        }
    }

    /// rejects.ndjson: each failing item as stored before the migration.
    private func writeRejects(_ failures: [MigrationFailure], store: SQLiteStore, plan: MigrationPlan, to directory: String) throws {
        let path = (directory as NSString).appendingPathComponent("rejects.ndjson")
        var text = ""
        if !failures.isEmpty { try store.prepareToRead(plan.from) }
        for failure in failures {
            let entity = plan.from.entity(named: failure.entity)
            let item = try entity.flatMap { entity in
                try store.fetch(failure.key, of: entity).map { values in zip(entity.attributes.map(\.name), values).map { ($0, $1) } }
            }
            text += MigrationReport.rejectLine(entity: failure.entity, key: failure.key, rejection: failure.rejection,
                                               toVersion: failure.toVersion, item: item)
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
