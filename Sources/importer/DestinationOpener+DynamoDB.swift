#if DynamoDB
import Foundation
import ImporterAWS
import ImporterCore
import ImporterDynamoDB
import ImporterS3

extension DestinationOpener {
    static func openDynamoDB(_ config: PipelineConfig, model: Model, dryRun: Bool, reportDirectory: String) throws -> DynamoDBStore? {
        let store = try dynamoDBStore(config, dryRun: dryRun, reportDirectory: reportDirectory)
        do {
            if dryRun { return try store.prepareToRead(model) ? store : nil }
            try store.prepare(for: model)
        } catch let error as ConfigurationError {
            throw error
        } catch let error as StoreError where error.isRefusal {
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
        let client = DynamoDBClient(aws, retry: RetryPolicy(config.retry), connections: config.write.concurrency + 2,
                                    adaptive: config.retry.mode == .adaptive, maxWriteUnits: config.write.maxWCU)
        let store: DynamoDBStore
        do {
            store = try DynamoDBStore(client: client, options: options)
        } catch let error as StoreError {
            throw ConfigurationError(file: config.file, key: "write", "\(error.message) (batchSize, concurrency)")
        }
        guard !config.write.atomic || store.rollsBack else {
            throw ConfigurationError(file: config.file, key: "write",
                "atomic: true needs a store that can roll a run back; DynamoDB writes each request for good (use --resume after an interruption instead)")
        }
        return store
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
