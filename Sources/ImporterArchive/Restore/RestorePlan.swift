import ImporterCore
import ImporterFormats

/// How `importer restore` runs a pipeline over a verified archive (docs/archives.md): the pipeline's
/// destination and write settings, the archive's data files as sources, and
/// `versions: preserve`, so every item keeps the version it had when it was exported. Run it
/// without checkpoints: an interrupted restore is started again (into SQLite it rolled back; on
/// DynamoDB the items already restored come back unchanged).
package struct RestorePlan {
    package let archive: VerifiedArchive
    /// The pipeline with its sources replaced by the archive's data files.
    package let config: PipelineConfig

    /// Refuses (`ConfigurationError`, nothing written) an archive of another model, of a newer
    /// version, or whose model version differs from that version in the model directory. An
    /// archive of an older version has its items migrated as they are read.
    package init(archive: VerifiedArchive, pipeline: PipelineConfig, model: Model, versions: VersionedModel) throws {
        let stored = archive.manifest.model
        guard stored.name == model.name else {
            throw ConfigurationError(
                file: archive.path,
                "the archive holds model \(stored.name), but the pipeline \(pipeline.file) uses model \(model.name)")
        }
        guard stored.version <= model.version else {
            throw ConfigurationError(
                file: archive.path,
                "the archive holds \(stored.name) version \(stored.version), newer than the pipeline's version \(model.version); add that version to \(pipeline.modelPath) and migrate the store first"
            )
        }
        guard let archived = versions.version(stored.version) else {
            throw ConfigurationError(
                file: archive.path,
                "the archive holds \(stored.name) version \(stored.version), which \(pipeline.modelPath) does not have")
        }
        guard stored.checksum == archived.checksum else {
            throw ConfigurationError(
                file: archive.path,
                "the archive's model \(stored.name) version \(stored.version) has checksum \(stored.checksum), but \(archived.file) has \(archived.checksum): the model file was edited after the export; restore with the model the archive holds (its model.yaml)"
            )
        }
        let migration =
            stored.version == model.version ? nil : try MigrationPlan(versions, from: stored.version, to: model.version)
        self.archive = archive
        var config = pipeline
        config.sources = try archive.manifest.entities.map { file in
            let path = "\(archive.path):\(file.file)"
            guard let entity = migration.map({ $0.currentName(ofEntity: file.entity) }) ?? file.entity else {
                throw ConfigurationError(
                    file: archive.path,
                    "\(file.entity) of version \(stored.version) is removed by version \(model.version), so its \(file.items) items would be dropped; restore with a pipeline pinned to modelVersion: \(stored.version), then migrate"
                )
            }
            // The exporting store accepted every reference it holds (kept dangling by a `keep`
            // policy, or made dangling by a later delete): they are restored as they are, not
            // decided again (docs/archives.md#restore).
            return SourceConfig(
                entity: entity, pattern: path, paths: [path], format: file.format.inputFormat,
                modelVersion: stored.version, references: ReferencePolicies(all: .keep))
        }
        config.write.versions = .preserve
        // Into SQLite a restore is one transaction: all or nothing.
        if config.destination.kind == .sqlite { config.write.atomic = true }
        self.config = config
    }

    /// Opens the reader of one of `config`'s sources: its data file, streamed from the archive.
    package func makeReader(source: SourceConfig, path: String) throws -> RecordReader {
        guard let file = archive.manifest.entities.first(where: { "\(archive.path):\($0.file)" == path }) else {
            throw InputError(path: path, message: "not a data file of the archive")
        }
        return ReaderFactory.makeReader(
            format: source.format ?? .ndjson, source: try ArchiveEntrySource(archive, file),
            name: path, csv: source.csv)
    }
}
