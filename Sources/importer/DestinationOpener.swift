import Foundation
import ImporterCore
import ImporterDynamoDB
import ImporterSQLite

/// A destination opened for a run: its store, and the store's run history if it keeps one.
struct OpenedDestination {
    let store: any Store
    let history: (any RunHistory)?
}

/// Opens a pipeline's destination (SPEC §4 `destination`) as a `Store`.
enum DestinationOpener {
    /// The store to run against. A dry run writes nothing and gets a store only when one exists
    /// already (to answer reference checks and preview sync deletes); else nil.
    /// Throws `ConfigurationError` (exit 2, nothing written) for what the user must fix.
    static func open(_ config: PipelineConfig, model: Model, dryRun: Bool, acceptModelChange: Bool = false,
                     reportDirectory: String) throws -> OpenedDestination? {
        switch config.destination.kind {
        case .sqlite:
            let store = try openSQLite(config, model: model, dryRun: dryRun, acceptModelChange: acceptModelChange)
            return store.map { OpenedDestination(store: $0, history: $0) }
        case .dynamodb:
            if acceptModelChange {
                throw ConfigurationError(file: config.file, key: "destination",
                    "--accept-model-change is for SQLite stores; a DynamoDB meta table keeps the checksum it was created with")
            }
            // DynamoDB keeps no run history: its runs are in their report files.
            return try openDynamoDB(config, model: model, dryRun: dryRun, reportDirectory: reportDirectory)
                .map { OpenedDestination(store: $0, history: nil) }
        }
    }

    /// The store to export from: it must exist and hold the pipeline's model version.
    static func openForReading(_ config: PipelineConfig, model: Model) throws -> Store {
        switch config.destination.kind {
        case .sqlite:
            let path = config.destination.path!
            do {
                let store = try SQLiteStore(existingPath: path)
                let meta = try store.meta()
                guard meta["model"] == model.name, meta["version"] == String(model.version) else {
                    throw ConfigurationError(file: path,
                        "the store holds model \(meta["model"] ?? "?") version \(meta["version"] ?? "?"), but the pipeline uses \(model.name) version \(model.version); pin modelVersion: \(meta["version"] ?? "N") in the pipeline to read it")
                }
                try store.prepareToRead(model)
                return store
            } catch let error as SQLiteError {
                throw ConfigurationError(file: path, "cannot open the store: \(error)")
            }
        case .dynamodb:
            guard let store = try openDynamoDB(config, model: model, dryRun: true, reportDirectory: config.reportDirectory) else {
                throw ConfigurationError(file: config.file, key: "destination",
                    "the DynamoDB tables of \(model.name) do not exist yet; run the pipeline first")
            }
            return store
        }
    }

    private static func openSQLite(_ config: PipelineConfig, model: Model, dryRun: Bool, acceptModelChange: Bool) throws -> SQLiteStore? {
        let path = config.destination.path!
        do {
            if dryRun {
                guard FileManager.default.fileExists(atPath: path) else { return nil }
                let store = try SQLiteStore(existingPath: path)
                if config.write.mode == .sync { try? store.prepareToRead(model) }  // to preview the deletes
                return store
            }
            let store = try SQLiteStore(path: path)
            if acceptModelChange { try store.acceptModelChangeIfNeeded(model) }
            try store.prepare(for: model)
            return store
        } catch let error as SQLiteError {
            throw ConfigurationError(file: path, "cannot open the store: \(error)")
        }
    }

    private static func openDynamoDB(_ config: PipelineConfig, model: Model, dryRun: Bool, reportDirectory: String) throws -> DynamoDBStore? {
        let store = try dynamoDBStore(config, dryRun: dryRun, reportDirectory: reportDirectory)
        do {
            if dryRun { return try store.prepareToRead(model) ? store : nil }
            try store.prepare(for: model)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError(file: config.file, key: "destination",
                "cannot prepare the DynamoDB tables at \(store.client.endpoint.absoluteString): \(error)")
        }
        return store
    }

    /// The pipeline's DynamoDB store, not prepared: nothing is checked or created yet (a
    /// migration reads the meta table itself). Tables are created only when the pipeline says so
    /// and this is no dry run.
    static func dynamoDBStore(_ config: PipelineConfig, dryRun: Bool, reportDirectory: String) throws -> DynamoDBStore {
        guard !config.write.atomic else {
            throw ConfigurationError(file: config.file, key: "write",
                "atomic: true is for the SQLite store; DynamoDB has no run-long transaction (use --resume after an interruption instead)")
        }
        if let size = config.write.batchSize, size > 100 {
            throw ConfigurationError(file: config.file, key: "write",
                "batchSize \(size) is more than DynamoDB's 100 writes per transaction; use 25 (the default) to 100")
        }
        let aws: AWSResolvedConfiguration
        do {
            aws = try AWSEnvironment.current.resolve(pipelineRegion: config.destination.region,
                                                     pipelineEndpoint: config.destination.endpoint)
        } catch {
            throw ConfigurationError(file: config.file, key: "destination", error.description)
        }
        var options = DynamoDBStore.Options()
        options.tablePrefix = config.destination.tablePrefix
        options.createTables = config.destination.createTables && !dryRun
        options.dates = DateEncoding(rawValue: config.destination.dateEncoding) ?? .iso8601
        options.transactionSize = config.write.batchSize ?? 25
        options.transactional = config.write.transactional
        options.concurrency = config.write.concurrency
        options.checkpointFile = (reportDirectory as NSString).appendingPathComponent("checkpoint.json")
        options.pipelineFile = config.file
        let client = DynamoDBClient(aws, retry: RetryPolicy(config.retry), connections: config.write.concurrency + 2)
        return DynamoDBStore(client: client, options: options)
    }
}
