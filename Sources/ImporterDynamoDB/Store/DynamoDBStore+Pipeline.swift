import Foundation
import ImporterAWS
import ImporterCore

extension DynamoDBStore {
    /// The store a pipeline's `destination:`, `write:` and `retry:` sections describe
    /// (docs/dynamodb.md), not prepared: nothing is sent yet. Tables are created only when the
    /// pipeline says so and this is no dry run; checkpoints go to `reportDirectory`. Throws
    /// `ConfigurationError`, naming the pipeline's key, for settings DynamoDB cannot work with.
    /// What a writer locks (docs/writes.md#one-writer-per-store): the checkpoint file its runs
    /// keep in `reportDirectory`, so two runs never share one.
    package static func lockPath(reportDirectory: String) -> String {
        FilePaths.join(reportDirectory, "checkpoint.json")
    }

    package convenience init(
        configuration config: PipelineConfig, environment: AWSEnvironment, reportDirectory: String,
        dryRun: Bool
    ) throws {
        let aws: AWSResolvedConfiguration
        do {
            aws = try environment.resolve(
                pipelineRegion: config.destination.region, pipelineEndpoint: config.destination.endpoint)
        } catch {
            throw ConfigurationError(file: config.file, key: "destination", error.description)
        }
        var options = Options()
        options.tablePrefix = config.destination.tablePrefix
        options.createTables = config.destination.createTables && !dryRun
        options.dates = DateEncoding(rawValue: config.destination.dateEncoding) ?? .iso8601
        options.transactionSize = config.write.batchSize ?? 25
        options.transactional = config.write.transactional
        options.concurrency = config.write.concurrency
        options.checkpointFile = Self.lockPath(reportDirectory: reportDirectory)
        let retry = RetryPolicy(
            maxAttempts: config.retry.maxAttempts, baseDelay: config.retry.baseDelay, maxDelay: config.retry.maxDelay)
        let client = DynamoDBClient(
            aws, retry: retry, connections: config.write.concurrency + 2,
            adaptive: config.retry.mode == .adaptive, maxWriteUnits: config.write.maxWCU)
        do {
            try self.init(client: client, options: options)
        } catch let error as StoreError {
            throw ConfigurationError(file: config.file, key: "write", "\(error.message) (batchSize, concurrency)")
        }
        guard !config.write.atomic else {
            throw ConfigurationError(
                file: config.file, key: "write",
                "atomic: true needs a store that can roll a run back; DynamoDB writes each request for good (use --resume after an interruption instead)"
            )
        }
    }
}
