#if DynamoDB
    import Foundation
    import ImporterAWS
    import ImporterCore
    import ImporterDynamoDB

    extension DestinationOpener {
        static func openDynamoDB(_ config: PipelineConfig, model: Model, dryRun: Bool, reportDirectory: String) throws
            -> DynamoDBStore?
        {
            let store = try dynamoDBStore(config, dryRun: dryRun, reportDirectory: reportDirectory)
            do {
                if dryRun { return try store.prepareToRead(model) ? store : nil }
                try store.prepare(for: model)
            } catch let error as ConfigurationError {
                throw error
            } catch let error as StoreError where error.isRefusal {
                throw error
            } catch {
                throw ConfigurationError(
                    file: config.file, key: "destination",
                    "cannot prepare the DynamoDB tables at \(store.client.endpointDescription): \(error)")
            }
            return store
        }

        /// What a writer of the DynamoDB destination locks: its checkpoint file in the report directory.
        static func dynamoDBLockPath(reportDirectory: String) -> String? {
            DynamoDBStore.lockPath(reportDirectory: reportDirectory)
        }

        /// The pipeline's DynamoDB store, not prepared: nothing is checked or created yet (a
        /// migration reads the meta table itself). Tables are created only when the pipeline says so
        /// and this is no dry run.
        static func dynamoDBStore(_ config: PipelineConfig, dryRun: Bool, reportDirectory: String) throws
            -> DynamoDBStore
        {
            try DynamoDBStore(
                configuration: config, environment: .current, reportDirectory: reportDirectory, dryRun: dryRun)
        }

        /// The pipeline's DynamoDB tables, to migrate (the meta table says what they hold).
        static func openDynamoDBForMigration(_ config: PipelineConfig, dryRun: Bool, reportDirectory: String) throws
            -> MigrationTarget
        {
            let store = try dynamoDBStore(config, dryRun: dryRun, reportDirectory: reportDirectory)
            return MigrationTarget(
                store: store,
                name:
                    "the tables with prefix '\(config.destination.tablePrefix)' at \(store.client.endpointDescription)",
                refusal: "nothing was written", close: store.close)
        }
    }
#endif
