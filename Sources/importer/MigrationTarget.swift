import Foundation
import ImporterCore
import ImporterSQLite

/// A store opened to be migrated, and how `importer migrate` names it.
struct MigrationTarget {
    let store: any StoreMigrating
    /// The store in messages: its path, or its tables' prefix and endpoint.
    let name: String
    /// What happened when items could not be migrated: an SQLite migration ran and was
    /// rolled back; a DynamoDB one checked every item first and wrote nothing.
    let refusal: String
    let close: () -> Void
}

extension DestinationOpener {
    /// The pipeline's store, to migrate. Throws `ConfigurationError` when there is none.
    static func openForMigration(_ config: PipelineConfig, dryRun: Bool, reportDirectory: String) throws
        -> MigrationTarget
    {
        switch config.destination.kind {
        case .sqlite:
            let store = try SQLiteStore.forMigration(config)
            return MigrationTarget(store: store, name: store.path, refusal: "rolled back", close: store.close)
        case .dynamodb:
            return try openDynamoDBForMigration(config, dryRun: dryRun, reportDirectory: reportDirectory)
        }
    }
}
