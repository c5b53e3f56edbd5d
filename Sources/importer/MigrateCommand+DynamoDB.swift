import ArgumentParser
import Foundation
import ImporterCore
import ImporterDynamoDB

extension MigrateCommand {
    /// DynamoDB tables: every item checked, then rewritten one by one (version-conditioned,
    /// resumable), the meta table recording the version and the history.
    func migrateDynamoDB(_ config: PipelineConfig, versions: VersionedModel, reportDirectory: String) throws {
        let started = Date()
        let (store, plan) = try exitOnConfigurationError { () -> (DynamoDBStore, MigrationPlan?) in
            if acceptModelChange {
                throw ConfigurationError(file: config.file, key: "destination",
                    "--accept-model-change is for SQLite stores; a DynamoDB meta table keeps the checksum it was created with")
            }
            let store = try DestinationOpener.dynamoDBStore(config, dryRun: dryRun, reportDirectory: reportDirectory)
            guard let (current, migratingTo) = try store.recordedModel(in: versions) else {
                throw ConfigurationError(file: config.file, key: "destination",
                    "no \(versions.newest.name) tables with prefix '\(config.destination.tablePrefix)' at \(store.client.endpoint.absoluteString); new tables start at the pipeline's model version, so there is nothing to migrate")
            }
            if let migratingTo, migratingTo != target(versions) {
                throw ConfigurationError(file: config.file, key: "destination",
                    "the tables are being migrated to version \(migratingTo) and that migration has not finished; finish it first with --to \(migratingTo)")
            }
            if current.version == target(versions) && migratingTo == nil { return (store, nil) }
            return (store, try MigrationPlan(versions, from: current.version, to: target(versions)))
        }
        let tables = "the tables with prefix '\(config.destination.tablePrefix)' at \(store.client.endpoint.absoluteString)"
        guard let plan else {
            print("\(tables) are already at \(versions.newest.name) version \(target(versions)); nothing to migrate")
            return
        }
        printPlan(plan)
        var settings = DynamoDBStore.MigrationSettings(
            checkpointFile: (reportDirectory as NSString).appendingPathComponent("migration-checkpoint.json"))
        settings.dryRun = dryRun
        settings.allowRejects = allowRejects
        let result = try store.migrate(plan, settings: settings)
        let failures = result.outcome.failures
        let status: MigrationReport.Status = switch result.status {
        case .migrated: .migrated
        case .migratedWithRejects: .migratedWithRejects
        case .refused: .rolledBack
        case .dryRun: .dryRun
        case .stopped: .stopped
        }
        var conclusion = switch result.status {
        case .migrated: "migrated \(tables) to version \(plan.to.version)"
        case .migratedWithRejects: "migrated \(tables) to version \(plan.to.version); \(failures.count) items that could not be migrated were deleted (see rejects.ndjson)"
        case .refused: "nothing was written: \(failures.count) items cannot be migrated, so \(tables) stay at version \(plan.from.version). Fix them (see rejects.ndjson), add convert.otherwise or a default, or run with --allow-rejects to delete them"
        case .dryRun: "dry run: nothing was changed"
        case .stopped: "the migration stopped part-way: \(failures.count) items changed since they were checked and cannot be migrated. Every item is whole, in version \(plan.from.version) or \(plan.to.version); run and export refuse the tables until the migration ends. Fix the items, or run importer migrate --allow-rejects to finish without them"
        }
        if result.resumed { conclusion = "resumed the unfinished migration (counts are from the check that began it)\n" + conclusion }
        for table in result.tablesLeft {
            conclusion += "\ntable \(table) is no longer in the model; it was left in place (delete it once you no longer need it)"
        }
        try report(Finished(store: tables, plan: plan, status: status,
                            steps: result.outcome.steps.map { .init(from: $0.from, to: $0.to, items: $0.items, failed: $0.failures.count) },
                            failures: failures, items: failures.map(\.item), conclusion: conclusion),
                   config: config, started: started, reportDirectory: reportDirectory)
    }
}
