import ArgumentParser
import Foundation
import ImporterCore
import ImporterSQLite

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a pipeline's store: model version, items per entity, migrations, last runs.")

    @OptionGroup var pipeline: PipelineOptions

    @Option(help: "How many recent runs to list.")
    var runs = 5

    func run() throws {
        let (config, model, store, meta) = try exitOnConfigurationError { () -> (PipelineConfig, Model, SQLiteStore, [String: String]) in
            let (config, model) = try pipeline.load(requireInputs: false)
            let store = try SQLiteStore(existingPath: config.destination.path ?? "")
            return (config, model, store, try store.meta())
        }
        var text = "store: \(config.destination.path ?? "")\n"
        text += "model: \(meta["model"] ?? "?") version \(meta["version"] ?? "?") (checksum \(meta["checksum"] ?? "?"))\n"
        if meta["version"] != String(model.version) || meta["checksum"] != model.checksum {
            text += "note: the pipeline uses \(model.name) version \(model.version) (checksum \(model.checksum))\n"
        }
        text += "items:\n"
        for (entity, count) in try store.counts(for: model) { text += "  \(entity): \(count)\n" }
        let migrations = try store.migrationHistory()
        if !migrations.isEmpty {
            text += "migrations:\n"
            for step in migrations {
                text += "  \(step["started"]!) \(step["from"]!) → \(step["to"]!): \(step["success"] == "1" ? "done" : "rolled back"), \(step["items"]!) items\(step["note"]!.isEmpty ? "" : " (\(step["note"]!))")\n"
            }
        }
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
}
