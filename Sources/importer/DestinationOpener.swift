import Foundation
import ImporterCore
import ImporterSQLite

/// Opens a pipeline's destination (docs/pipeline.md `destination`) as a `Store`.
enum DestinationOpener {
    /// The store to run against. A dry run writes nothing and gets a store only when one exists
    /// already (to answer reference checks and preview sync deletes); else nil.
    /// Throws `ConfigurationError` (exit 2, nothing written) for what the user must fix.
    static func open(
        _ config: PipelineConfig, model: Model, dryRun: Bool, acceptModelChange: Bool = false,
        reportDirectory: String
    ) throws -> (any Store)? {
        switch config.destination.kind {
        case .sqlite:
            return try SQLiteStore.forRun(config, model: model, dryRun: dryRun, acceptModelChange: acceptModelChange)
        case .dynamodb:
            if acceptModelChange {
                throw ConfigurationError(
                    file: config.file, key: "destination",
                    "--accept-model-change is for SQLite stores; a DynamoDB meta table keeps the checksum it was created with"
                )
            }
            // DynamoDB keeps no run history: its runs are in their report files.
            return try openDynamoDB(config, model: model, dryRun: dryRun, reportDirectory: reportDirectory)
        }
    }

    /// The store to export from: it must exist and hold the pipeline's model version.
    static func openForReading(_ config: PipelineConfig, model: Model) throws -> Store {
        switch config.destination.kind {
        case .sqlite:
            return try SQLiteStore.forReading(config, model: model)
        case .dynamodb:
            guard
                let store = try openDynamoDB(
                    config, model: model, dryRun: true, reportDirectory: config.reportDirectory)
            else {
                throw ConfigurationError(
                    file: config.file, key: "destination",
                    "the DynamoDB tables of \(model.name) do not exist yet; run the pipeline first")
            }
            return store
        }
    }

    /// Locks the destination for the command (docs/writes.md#one-writer-per-store), before it
    /// is opened or anything beside it written. A SQLite store is locked itself; nil for one
    /// that does not exist yet when the lock is shared (a reader creates nothing). A DynamoDB
    /// destination keeps its checkpoints in the report directory (`reportDirectory`): a writer
    /// locks those, so two runs never share one; a reader takes no lock. `ConfigurationError`
    /// (exit 2) when another process holds it past `--wait`.
    static func lock(_ config: PipelineConfig, _ request: StoreLockRequest, reportDirectory: String) throws
        -> StoreLock?
    {
        switch config.destination.kind {
        case .sqlite:
            guard let path = SQLiteStore.lockPath(of: config) else { return nil }
            if request.access == .shared && !FileManager.default.fileExists(atPath: path) { return nil }
            return try request.take(path)
        case .dynamodb:
            guard request.access == .exclusive, let path = dynamoDBLockPath(reportDirectory: reportDirectory) else {
                return nil
            }
            return try request.take(path)
        }
    }
}
