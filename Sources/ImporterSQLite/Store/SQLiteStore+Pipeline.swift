import Foundation
import ImporterCore

/// The store a pipeline's `destination:` section names (docs/pipeline.md `destination`), opened
/// and checked here, so the CLI and a program that runs a pipeline get the same checks and the
/// same messages. Each form throws `ConfigurationError` (exit 2, nothing written) naming the
/// store file for what the user must fix.
extension SQLiteStore {
    /// The store file of `config`'s destination, opened but not prepared. A `dryRun` opens an
    /// existing file read-only and creates nothing; otherwise the file and its directory are
    /// created when missing.
    package convenience init(configuration config: PipelineConfig, dryRun: Bool) throws {
        let path = try Self.path(of: config)
        do {
            if dryRun { try self.init(existingPath: path) } else { try self.init(path: path) }
        } catch let error as SQLiteError {
            throw Self.cannotOpen(path, error)
        }
    }

    /// The store for a run, prepared for `model` (after accepting an edited model file with
    /// `acceptModelChange`, docs/migration.md). A dry run writes nothing: it gets the store only
    /// when one exists already (to answer reference checks and preview sync deletes), else nil.
    package static func forRun(_ config: PipelineConfig, model: Model, dryRun: Bool, acceptModelChange: Bool)
        throws -> SQLiteStore?
    {
        let path = try path(of: config)
        if dryRun {
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            let store = try SQLiteStore(configuration: config, dryRun: true)
            // To preview the deletes: sync's, or of children that left their documents.
            if config.write.mode == .sync || config.sources.contains(where: { !$0.children.isEmpty }) {
                try? store.prepareToRead(model)
            }
            return store
        }
        let store = try SQLiteStore(configuration: config, dryRun: false)
        try opening(path) {
            if acceptModelChange { try store.acceptModelChangeIfNeeded(model) }
            try store.prepare(for: model)
        }
        return store
    }

    /// The store to export from: it must exist and hold `model`'s version. Opened read-only.
    package static func forReading(_ config: PipelineConfig, model: Model) throws -> SQLiteStore {
        let store = try SQLiteStore(configuration: config, dryRun: true)
        try opening(store.path) {
            guard let recorded = try store.recordedModel() else {
                throw ConfigurationError(
                    file: store.path, "the store records no model; it was not made by importer run")
            }
            try recorded.require(model, at: store.path, checksum: false)
            try store.prepareToRead(model)
        }
        return store
    }

    /// The store to migrate (docs/migration.md): it must exist already, since a new store starts
    /// at the pipeline's model version.
    package static func forMigration(_ config: PipelineConfig) throws -> SQLiteStore {
        let path = try path(of: config)
        guard FileManager.default.fileExists(atPath: path) else {
            throw ConfigurationError(
                file: path,
                "the store does not exist; a new store starts at the pipeline's model version, so there is nothing to migrate"
            )
        }
        return try SQLiteStore(configuration: config, dryRun: false)
    }

    /// The store to describe (`importer inspect`), opened read-only, and the model it records:
    /// it must be a store importer wrote.
    package static func forInspection(_ config: PipelineConfig) throws -> (store: SQLiteStore, recorded: ModelIdentity)
    {
        let path = try path(of: config)
        let advice = "name the store a pipeline's runs write"
        do {
            let store = try SQLiteStore(existingPath: path)
            guard let recorded = try store.recordedModel() else {
                throw ConfigurationError(
                    file: path, "not a store the importer wrote (it has no _importer_meta); \(advice)")
            }
            return (store, recorded)
        } catch let error as SQLiteError {
            throw ConfigurationError(file: path, "not a store the importer can read (\(error.message)); \(advice)")
        }
    }

    /// What a command locks (docs/writes.md#one-writer-per-store): the store file itself; nil
    /// when the destination names none.
    package static func lockPath(of config: PipelineConfig) -> String? {
        try? path(of: config)
    }

    /// The store file's path: the pipeline's `destination.path` (the loader gives a default).
    private static func path(of config: PipelineConfig) throws -> String {
        guard config.destination.kind == .sqlite, let path = config.destination.path, !path.isEmpty else {
            throw ConfigurationError(file: config.file, key: "destination", "a sqlite destination needs a path")
        }
        return path
    }

    /// Runs `body`, saying what SQLite refused as a store that cannot be opened.
    private static func opening(_ path: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SQLiteError {
            throw cannotOpen(path, error)
        }
    }

    private static func cannotOpen(_ path: String, _ error: SQLiteError) -> ConfigurationError {
        ConfigurationError(file: path, "cannot open the store: \(error)")
    }
}
