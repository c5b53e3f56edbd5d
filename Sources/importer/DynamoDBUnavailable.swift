#if !DynamoDB
    import ImporterCore

    /// A build without the `DynamoDB` trait (`scripts/run-sample` builds one, to start fast): a
    /// DynamoDB destination is a configuration error that says how to build the whole tool.
    private func dynamoDBUnavailable(_ config: PipelineConfig) -> ConfigurationError {
        ConfigurationError(
            file: config.file, key: "destination",
            "this importer was built without DynamoDB (the local-only build of scripts/run-sample); build the whole tool with `swift build -c release` and run .build/release/importer"
        )
    }

    /// The same for S3 (`what`: "read s3:// inputs", "restore from S3", "export to S3").
    func awsClientsUnavailable(file: String, line: Int? = nil, key: String? = nil, to what: String)
        -> ConfigurationError
    {
        ConfigurationError(
            file: file, line: line, key: key,
            "this importer was built without the AWS clients (the local-only build of scripts/run-sample); build the whole tool with `swift build -c release` to \(what)"
        )
    }

    extension DestinationOpener {
        /// Nothing to lock: opening the destination fails.
        static func dynamoDBLockPath(reportDirectory: String) -> String? { nil }

        static func openDynamoDB(_ config: PipelineConfig, model: Model, dryRun: Bool, reportDirectory: String) throws
            -> (any Store)?
        {
            throw dynamoDBUnavailable(config)
        }

        static func openDynamoDBForMigration(_ config: PipelineConfig, dryRun: Bool, reportDirectory: String) throws
            -> MigrationTarget
        {
            throw dynamoDBUnavailable(config)
        }
    }

    extension InspectCommand {
        func inspectDynamoDB(_ config: PipelineConfig, versions: VersionedModel, model: Model) throws {
            try exitOnConfigurationError { throw dynamoDBUnavailable(config) }
        }
    }
#endif
