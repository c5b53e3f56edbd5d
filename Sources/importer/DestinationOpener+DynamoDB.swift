#if DynamoDB
import Foundation
import ImporterAWS
import ImporterCore
import ImporterDynamoDB

extension DestinationOpener {
    static func openDynamoDB(_ config: PipelineConfig, model: Model, dryRun: Bool, reportDirectory: String) throws -> DynamoDBStore? {
        let store = try dynamoDBStore(config, dryRun: dryRun, reportDirectory: reportDirectory)
        do {
            if dryRun { return try store.prepareToRead(model) ? store : nil }
            try store.prepare(for: model)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError(file: config.file, key: "destination",
                "cannot prepare the DynamoDB tables at \(store.client.endpointDescription): \(error)")
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
        options.checkpointFile = FilePaths.join(reportDirectory, "checkpoint.json")
        options.pipelineFile = config.file
        let client = DynamoDBClient(aws, retry: RetryPolicy(config.retry), connections: config.write.concurrency + 2,
                                    adaptive: config.retry.mode == .adaptive, maxWriteUnits: config.write.maxWCU)
        return DynamoDBStore(client: client, options: options)
    }

    /// The pipeline's DynamoDB tables, to migrate (the meta table says what they hold).
    static func openDynamoDBForMigration(_ config: PipelineConfig, dryRun: Bool, reportDirectory: String) throws -> MigrationTarget {
        let store = try dynamoDBStore(config, dryRun: dryRun, reportDirectory: reportDirectory)
        return MigrationTarget(store: store,
                               name: "the tables with prefix '\(config.destination.tablePrefix)' at \(store.client.endpointDescription)",
                               refusal: "nothing was written", close: store.close)
    }
}
#endif
