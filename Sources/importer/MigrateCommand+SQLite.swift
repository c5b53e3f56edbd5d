import ArgumentParser
import Foundation
import ImporterCore
import ImporterSQLite

extension MigrateCommand {
    /// A SQLite store: every step in one transaction, all or nothing.
    func migrateSQLite(_ config: PipelineConfig, versions: VersionedModel, reportDirectory: String) throws {
        let started = Date()
        let path = config.destination.path!
        let (store, current, plan) = try exitOnConfigurationError { () -> (SQLiteStore, Model, MigrationPlan?) in
            guard FileManager.default.fileExists(atPath: path) else {
                throw ConfigurationError(file: path, "the store does not exist; a new store starts at the pipeline's model version, so there is nothing to migrate")
            }
            let store = try SQLiteStore(path: path)
            let current = try store.storedModel(in: versions, acceptModelChange: acceptModelChange && !dryRun)
            if current.version == target(versions) { return (store, current, nil) }
            return (store, current, try MigrationPlan(versions, from: current.version, to: target(versions)))
        }
        defer { store.close() }
        guard let plan else {
            print("\(path) is already at \(current.name) version \(current.version); nothing to migrate")
            return
        }
        printPlan(plan)
        let outcome = try store.migrate(plan, commit: !dryRun)
        var items = outcome.steps.map(\.items)
        let failures = outcome.failures
        var status: MigrationReport.Status = dryRun ? .dryRun : failures.isEmpty ? .migrated : .rolledBack
        // rejects.ndjson: each failing item as stored before the migration.
        if !failures.isEmpty { try store.prepareToRead(plan.from) }
        let storedItems = try failures.map { failure in
            try plan.from.entity(named: failure.entity).flatMap { try store.fetch(failure.key, of: $0) }
        }
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
        let conclusion = switch status {
        case .migrated: "migrated \(path) to version \(plan.to.version)"
        case .migratedWithRejects: "migrated \(path) to version \(plan.to.version) without \(failures.count) items (see rejects.ndjson)"
        case .rolledBack: "rolled back: \(failures.count) items cannot be migrated, so the store is unchanged at version \(plan.from.version). Fix them (see rejects.ndjson), add convert.otherwise or a default, or run with --allow-rejects to leave them out"
        case .dryRun, .stopped: "dry run: nothing was changed"
        }
        try report(Finished(
            store: path, plan: plan, status: status,
            steps: zip(outcome.steps, items).map { .init(from: $0.from, to: $0.to, items: $1, failed: $0.failures.count) },
            failures: failures, items: storedItems, conclusion: conclusion), config: config, started: started, reportDirectory: reportDirectory)
    }
}
