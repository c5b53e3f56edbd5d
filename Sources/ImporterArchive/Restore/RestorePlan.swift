import ImporterCore
import ImporterFormats

/// How `importer restore` runs a pipeline over a verified archive (SPEC §10): the pipeline's
/// destination and write settings, the archive's data files as sources, and
/// `versions: preserve`, so every item keeps the version it had when it was exported. Run it
/// without checkpoints: an interrupted restore is started again (into SQLite it rolled back; on
/// DynamoDB the items already restored come back unchanged).
public struct RestorePlan {
    public let archive: VerifiedArchive
    /// The pipeline with its sources replaced by the archive's data files.
    public let config: PipelineConfig

    /// Refuses (`ConfigurationError`, nothing written) an archive of another model, version or
    /// checksum than the pipeline's model.
    public init(archive: VerifiedArchive, pipeline: PipelineConfig, model: Model) throws {
        let stored = archive.manifest.model
        guard stored.name == model.name else {
            throw ConfigurationError(file: archive.path,
                "the archive holds model \(stored.name), but the pipeline \(pipeline.file) uses model \(model.name)")
        }
        guard stored.version == model.version else {
            throw ConfigurationError(file: archive.path,
                "the archive holds \(stored.name) version \(stored.version), but the pipeline uses version \(model.version); restore it with a pipeline pinned to modelVersion: \(stored.version) (migrating archives on the fly is not available yet)")
        }
        guard stored.checksum == model.checksum else {
            throw ConfigurationError(file: archive.path,
                "the archive's model \(stored.name) version \(stored.version) has checksum \(stored.checksum), but \(model.file) has \(model.checksum): the model file was edited after the export; restore with the model the archive holds (its model.yaml)")
        }
        self.archive = archive
        var config = pipeline
        config.sources = archive.manifest.entities.map { file in
            let path = "\(archive.path):\(file.file)"
            return SourceConfig(entity: file.entity, pattern: path, paths: [path], format: file.format.inputFormat)
        }
        config.write.versions = .preserve
        // Into SQLite a restore is one transaction: all or nothing.
        if config.destination.kind == .sqlite { config.write.atomic = true }
        self.config = config
    }

    /// Opens the reader of one of `config`'s sources: its data file, streamed from the archive.
    public func makeReader(source: SourceConfig, path: String) throws -> RecordReader {
        guard let file = archive.manifest.entities.first(where: { "\(archive.path):\($0.file)" == path }) else {
            throw InputError(path: path, message: "not a data file of the archive")
        }
        return ReaderFactory.makeReader(format: source.format ?? .ndjson, source: try ArchiveEntrySource(archive, file),
                                        name: path, csv: source.csv)
    }
}
