import ArgumentParser
import Foundation
import ImporterCore
import ImporterDynamoDB
import ImporterSQLite

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a pipeline's store: model version, items per entity, migrations, last runs.")

    @OptionGroup var pipeline: PipelineOptions

    @Option(help: "How many recent runs to list (SQLite).")
    var runs = 5

    func run() throws {
        let (config, versions, model) = try exitOnConfigurationError { try pipeline.loadVersions(requireInputs: false) }
        switch config.destination.kind {
        case .sqlite: try inspectSQLite(config, model: model)
        case .dynamodb: try inspectDynamoDB(config, versions: versions, model: model)
        }
    }

    private func inspectSQLite(_ config: PipelineConfig, model: Model) throws {
        let (store, meta) = try exitOnConfigurationError { () -> (SQLiteStore, [String: String]) in
            let store = try SQLiteStore(existingPath: config.destination.path ?? "")
            return (store, try store.meta())
        }
        var text = "store: \(config.destination.path ?? "")\n"
        text += describe(model, storedVersion: meta["version"], storedChecksum: meta["checksum"], storedName: meta["model"])
        text += "items:\n"
        for (entity, count) in try store.counts(for: model) { text += "  \(entity): \(count)\n" }
        text += describe(migrations: try store.migrationHistory())
        text += "last runs:\n"
        let history = try store.recentRuns(limit: runs)
        if history.isEmpty { text += "  none\n" }
        for run in history {
            text += "  \(run["started"]!) \(run["status"]!) \(run["pipeline"]!): read \(run["read"]!), inserted \(run["inserted"]!), updated \(run["updated"]!), unchanged \(run["unchanged"]!), rejected \(run["rejected"]!) (run \(run["runId"]!))\n"
        }
        if let checkpoint = try? store.loadCheckpoint() {
            let done = checkpoint.inputs.map(\.nextRecord).reduce(0, +)
            text += "interrupted run \(checkpoint.runId) of \(checkpoint.pipeline): \(done) records done; continue it with: importer run \(checkpoint.pipeline) --resume\n"
        }
        print(text, terminator: "")
    }

    /// The meta table's record, and the items of each table of the version the tables hold.
    private func inspectDynamoDB(_ config: PipelineConfig, versions: VersionedModel, model: Model) throws {
        let reportDirectory = config.reportDirectory
        let (store, recorded) = try exitOnConfigurationError { () -> (DynamoDBStore, RecordedModel) in
            let store = try DestinationOpener.dynamoDBStore(config, dryRun: true, reportDirectory: reportDirectory)
            guard let recorded = try store.recorded(model: model.name) else {
                throw ConfigurationError(file: config.file, key: "destination",
                    "no \(model.name) tables with prefix '\(config.destination.tablePrefix)' at \(store.client.endpoint.absoluteString) yet")
            }
            return (store, recorded)
        }
        var text = "store: DynamoDB tables with prefix '\(config.destination.tablePrefix)' at \(store.client.endpoint.absoluteString)\n"
        text += describe(model, storedVersion: String(recorded.version), storedChecksum: recorded.checksum, storedName: model.name)
        if let target = recorded.migratingTo {
            text += "unfinished migration to version \(target) (started \(recorded.migrationStarted ?? "?")); finish it with: importer migrate \(config.file) --to \(target)\n"
        }
        text += "items:\n"
        for entity in (versions.version(recorded.version) ?? model).entities {
            text += "  \(entity.name) (\(store.table(of: entity))): \(try store.count(of: entity))\n"
        }
        text += describe(migrations: recorded.migrations)
        let checkpoint = (reportDirectory as NSString).appendingPathComponent("checkpoint.json")
        if FileManager.default.fileExists(atPath: checkpoint) {
            text += "interrupted run: \(checkpoint); continue it with: importer run \(config.file) --resume\n"
        }
        print(text, terminator: "")
    }

    private func describe(_ model: Model, storedVersion: String?, storedChecksum: String?, storedName: String?) -> String {
        var text = "model: \(storedName ?? "?") version \(storedVersion ?? "?") (checksum \(storedChecksum ?? "?"))\n"
        if storedVersion != String(model.version) || storedChecksum != model.checksum {
            text += "note: the pipeline uses \(model.name) version \(model.version) (checksum \(model.checksum))\n"
        }
        return text
    }

    private func describe(migrations: [[String: String]]) -> String {
        guard !migrations.isEmpty else { return "" }
        var text = "migrations:\n"
        for step in migrations {
            let note = step["note"] ?? ""
            text += "  \(step["started"] ?? "?") \(step["from"] ?? "?") → \(step["to"] ?? "?"): \(step["success"] == "1" ? "done" : "not applied"), \(step["items"] ?? "?") items\(note.isEmpty ? "" : " (\(note))")\n"
        }
        return text
    }
}
