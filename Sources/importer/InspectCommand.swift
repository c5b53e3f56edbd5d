import ArgumentParser
import Foundation
import ImporterCore
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
        let (store, recorded) = try exitOnConfigurationError { try SQLiteStore.forInspection(config) }
        var text = "store: \(config.destination.path ?? "")\n"
        text += describe(model, stored: recorded)
        text += "items:\n"
        for (entity, count) in try store.counts(for: model) { text += "  \(entity): \(count)\n" }
        text += describe(migrations: try store.migrationHistory())
        text += "last runs:\n"
        let history = try store.recentRuns(limit: runs)
        if history.isEmpty { text += "  none\n" }
        for run in history {
            text +=
                "  \(ISO8601.format(run.started)) \(run.status?.rawValue ?? "?") \(run.pipeline): read \(run.read), inserted \(run.inserted), updated \(run.updated), unchanged \(run.unchanged), rejected \(run.rejected) (run \(run.runId))\n"
        }
        if let checkpoint = try? store.loadCheckpoint() {
            let done = checkpoint.inputs.map(\.nextRecord).reduce(0, +)
            text +=
                "interrupted run \(checkpoint.runId) of \(checkpoint.pipeline): \(done) records done; continue it with: importer run \(checkpoint.pipeline) --resume\n"
        }
        print(text, terminator: "")
    }

    func describe(_ model: Model, stored: ModelIdentity) -> String {
        var text = "model: \(stored.name) version \(stored.version) (checksum \(stored.checksum))\n"
        if stored.version != model.version || stored.checksum != model.checksum {
            text += "note: the pipeline uses \(model.name) version \(model.version) (checksum \(model.checksum))\n"
        }
        return text
    }

    func describe(migrations: [MigrationRecord]) -> String {
        guard !migrations.isEmpty else { return "" }
        var text = "migrations:\n"
        for step in migrations {
            let note = step.note.map { " (\($0))" } ?? ""
            text +=
                "  \(ISO8601.format(step.started)) \(step.from) → \(step.to): \(step.applied ? "done" : "not applied"), \(step.items) items\(note)\n"
        }
        return text
    }
}
