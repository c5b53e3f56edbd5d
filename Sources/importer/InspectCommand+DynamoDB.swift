#if DynamoDB
    import Foundation
    import ImporterAWS
    import ImporterCore
    import ImporterDynamoDB

    extension InspectCommand {
        /// The meta table's record, and the items of each table of the version the tables hold.
        func inspectDynamoDB(_ config: PipelineConfig, versions: VersionedModel, model: Model) throws {
            let reportDirectory = config.reportDirectory
            let (store, recorded) = try exitOnConfigurationError { () -> (DynamoDBStore, RecordedModel) in
                let store = try DestinationOpener.dynamoDBStore(config, dryRun: true, reportDirectory: reportDirectory)
                guard let recorded = try store.recorded(model: model.name) else {
                    throw ConfigurationError(
                        file: config.file, key: "destination",
                        "no \(model.name) tables with prefix '\(config.destination.tablePrefix)' at \(store.client.endpointDescription) yet"
                    )
                }
                return (store, recorded)
            }
            var text =
                "store: DynamoDB tables with prefix '\(config.destination.tablePrefix)' at \(store.client.endpointDescription)\n"
            text += describe(
                model, stored: ModelIdentity(name: model.name, version: recorded.version, checksum: recorded.checksum))
            if let target = recorded.migratingTo {
                text +=
                    "unfinished migration to version \(target) (started \(recorded.migrationStarted ?? "?")); finish it with: importer migrate \(config.file) --to \(target)\n"
            }
            text += "items:\n"
            for entity in (versions.version(recorded.version) ?? model).entities {
                text += "  \(entity.name) (\(store.table(of: entity))): \(try store.count(of: entity))\n"
            }
            text += describe(migrations: recorded.migrations)
            let checkpoint = FilePaths.join(reportDirectory, "checkpoint.json")
            if FileManager.default.fileExists(atPath: checkpoint) {
                text += "interrupted run: \(checkpoint); continue it with: importer run \(config.file) --resume\n"
            }
            print(text, terminator: "")
        }
    }
#endif
