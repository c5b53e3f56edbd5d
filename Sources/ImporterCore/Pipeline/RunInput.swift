import Foundation

/// One input file of a source, in the order a run processes them (parents first).
struct RunInput: Sendable {
    let source: SourceConfig
    let path: String
    let entity: Entity
    /// The entity as the dump's model version has it (`entity` unless the source has an
    /// older `modelVersion`), and the migration of its records to the run's version.
    let sourceEntity: Entity
    let migration: MigrationPlan?
    /// How checkpoints name the file: absolute, so a resume from another directory finds it.
    let absolutePath: String

    /// The object an `s3://` path names, as listed (nil for a local file).
    let remote: RemoteObject?
    /// The shard whose blocks of records this run takes from the file (nil: every record).
    var slice: Shard?
    /// For the inputs of a document source (docs/documents.md), which node of its documents'
    /// shape this input's records are: node 0, the root, reads the file; its child inputs follow
    /// it, in the shape's order, and are read with it.
    var document: DocumentInput?
    /// For the inputs of a document source: where the text of its large documents is read
    /// again; one per file, its root's and children's.
    var documentTexts: DocumentTexts?
    /// The numbers the destination holds, when narrower than the model's types.
    var numberLimits: StoreNumberLimits?

    /// How checkpoints name the input: its absolute path, and for a child of documents the
    /// entity too (the file is the root's).
    var checkpointName: String {
        guard let document, document.node > 0 else { return absolutePath }
        return absolutePath + "#" + entity.name
    }

    init(
        source: SourceConfig, path: String, entity: Entity, sourceEntity: Entity, migration: MigrationPlan?,
        remote: RemoteObject? = nil
    ) {
        self.source = source
        self.path = path
        self.remote = remote
        self.entity = entity
        self.sourceEntity = sourceEntity
        self.migration = migration
        absolutePath = Self.absolute(path)
    }

    /// What the error limits count of it (docs/reports.md#error-limits).
    var errorUnit: RunRecorder.ErrorUnit {
        guard let document else { return .record }
        if document.node == 0 { return .document }
        return document.policy == .partial ? .partialElement : .withDocument
    }

    var format: InputFormat { source.format ?? InputFormat(path: path) ?? .csv }

    /// The file's size on disk (an object's as listed), for progress (0 when it cannot be read).
    var fileSize: Int64 {
        if let remote { return remote.size }
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// What identifies the input's content: a file's size and digest (`digest`, if taken
    /// already), an object's size and ETag.
    func fingerprint(digest: InputDigest? = nil) throws -> InputFingerprint {
        guard let remote else { return try InputFingerprint(of: path, digest: digest) }
        return InputFingerprint(size: remote.size, content: "etag:" + remote.etag)
    }

    /// Checkpoints name files by absolute path, so a resume from another directory finds them;
    /// an `s3://` URL is absolute already.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("s3://") { return path }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Every input file, parents-first by the model's relationships, in pipeline order within
    /// an entity. Throws `ConfigurationError` for an unknown entity, a map that does not fit
    /// the entity, or a source model version that cannot be migrated.
    static func ordered(_ config: PipelineConfig, _ model: Model, _ versions: VersionedModel?) throws -> [RunInput] {
        var sourceEntities: [(Entity, MigrationPlan?)] = []
        for source in config.sources {
            guard let entity = model.entity(named: source.entity) else {
                throw ConfigurationError(
                    file: config.file, line: source.line, key: "entity",
                    "'\(source.entity)' is not an entity of model \(model.name) v\(model.version); use one of: \(model.entities.map(\.name).joined(separator: ", "))"
                )
            }
            let (sourceEntity, migration) = try migration(of: source, entity, config, model, versions)
            _ = try RecordMapper(entity: sourceEntity, map: source.map, file: config.file, line: source.line)
            try source.references.check(for: entity, file: config.file, sourceLine: source.line)
            sourceEntities.append((sourceEntity, migration))
        }
        var inputs: [RunInput] = []
        for entityName in model.parentsFirstOrder {
            let entity = model.entity(named: entityName)!
            for (index, source) in config.sources.enumerated() where source.entity == entityName {
                let (sourceEntity, migration) = sourceEntities[index]
                let children = try DocumentInput.children(of: source, entity: entity, config: config, model: model)
                let source =
                    source.readsDocuments
                    ? DocumentInput.droppingPathRoots(of: source, entities: [sourceEntity] + children.map(\.entity))
                    : source
                for path in source.paths {
                    var input = RunInput(
                        source: source, path: path, entity: entity, sourceEntity: sourceEntity, migration: migration,
                        remote: config.objects[path])
                    input.numberLimits = StoreNumberLimits(config.destination.kind)
                    guard source.readsDocuments else {
                        inputs.append(input)
                        continue
                    }
                    input.document = DocumentInput(
                        shape: DocumentShape(source), node: 0, groupSize: children.count + 1, policy: source.documents)
                    input.documentTexts = DocumentTexts(path: path)
                    inputs.append(input)
                    for child in children {
                        var childInput = RunInput(
                            source: child.source, path: path, entity: child.entity, sourceEntity: child.entity,
                            migration: nil, remote: config.objects[path])
                        childInput.document = child.role
                        childInput.document?.policy = source.documents
                        childInput.documentTexts = input.documentTexts
                        childInput.numberLimits = input.numberLimits
                        inputs.append(childInput)
                    }
                }
            }
        }
        return inputs
    }

    /// A source written against an older model version: its entity in that version, and the
    /// plan that migrates its records to the run's version (migrate-on-read, docs/migration.md).
    private static func migration(
        of source: SourceConfig, _ entity: Entity, _ config: PipelineConfig, _ model: Model,
        _ versions: VersionedModel?
    ) throws -> (Entity, MigrationPlan?) {
        guard let version = source.modelVersion, version != model.version else { return (entity, nil) }
        let at = { (message: String) in
            ConfigurationError(file: config.file, line: source.line, key: "modelVersion", message)
        }
        guard version < model.version else {
            throw at(
                "the dump was written against model version \(version), newer than the run's version \(model.version); migrate the store to \(version) and run with that version"
            )
        }
        guard let versions, versions.version(version) != nil else {
            throw at("model version \(version) is not in \(config.modelPath)")
        }
        let plan = try MigrationPlan(versions, from: version, to: model.version)
        guard let name = plan.originalName(ofEntity: entity.name), let old = plan.from.entity(named: name) else {
            throw at("\(entity.name) is new after version \(version), so a dump of version \(version) cannot hold it")
        }
        return (old, plan)
    }
}

extension [RunInput] {
    /// The inputs of a run limited to `entities` and to `shard`'s slice: every N-th file of a
    /// source with at least N files, else every file, sliced into blocks of records.
    func selected(entities: [String]?, shard: Shard?) -> [RunInput] {
        var inputs = self
        // The inputs of a document source go with their root, which reads the file.
        if let entities {
            var keepsGroup = false
            inputs.removeAll { input in
                if let document = input.document, document.node > 0 { return !keepsGroup }
                keepsGroup = entities.contains(input.entity.name)
                return !keepsGroup
            }
        }
        guard let shard else { return inputs }
        var keepsGroup = false
        return inputs.compactMap { input in
            if let document = input.document, document.node > 0 {
                return keepsGroup ? input : nil  // read with its root, in the root's slice
            }
            keepsGroup = true
            let files = input.source.paths
            guard files.count < shard.count else {
                keepsGroup = shard.takes(files.firstIndex(of: input.path) ?? 0)
                return keepsGroup ? input : nil
            }
            var sliced = input
            sliced.slice = shard
            return sliced
        }
    }
}
