import ImporterAWS
import ImporterCore
import ImporterFormats

/// DynamoDB export folders in S3 (`format: dynamodb-export`, `path: s3://bucket/…/AWSDynamoDB/<id>/`):
/// each is replaced by its data files once every one matches the manifest (docs/pipeline.md#dynamodb-exports).
extension S3Inputs {
    /// Lists each `s3://` export folder of `config`'s sources, reads its manifests, checks every
    /// data file (its MD5 and item count: the whole object is read) and makes the data files
    /// the source's inputs, their sizes and ETags in `config.objects`. Throws
    /// `ConfigurationError` for a folder without manifests, `ExportIntegrityError` for a data
    /// file missing or different from the manifest.
    package func expandExports(_ config: inout PipelineConfig) throws {
        for index in config.sources.indices where config.sources[index].format == .dynamodbExport {
            var paths: [String] = []
            for path in config.sources[index].paths {
                guard let location = S3Location(path) else {
                    paths.append(path)
                    continue
                }
                let files = try verifiedDataFiles(
                    folder: location, source: config.sources[index], pipelineFile: config.file)
                for object in files {
                    paths.append(object.location.description)
                    config.objects[object.location.description] = RemoteObject(size: object.size, etag: object.etag)
                }
            }
            config.sources[index].paths = paths
        }
    }

    /// The data objects of the export at `folder`, in manifest order, each checked (a few at
    /// once; each object is read whole, in ranges).
    private func verifiedDataFiles(folder: S3Location, source: SourceConfig, pipelineFile: String) throws -> [S3Object]
    {
        let at = { (message: String) in ConfigurationError(file: pipelineFile, line: source.line, key: "path", message)
        }
        guard !folder.isPattern else {
            throw at(
                "'\(folder)' has glob characters; format dynamodb-export reads one export folder, s3://BUCKET/…/AWSDynamoDB/<export id>/"
            )
        }
        let prefix = folder.key.hasSuffix("/") ? folder.key : folder.key + "/"
        let export = S3Location(bucket: folder.bucket, key: prefix).description
        let listed: [String: S3Object]
        do {
            let objects = try client.listing(bucket: folder.bucket, prefix: prefix)
            listed = Dictionary(objects.map { ($0.location.key, $0) }, uniquingKeysWith: { first, _ in first })
        } catch {
            throw at("\(error)")
        }
        func manifest(_ name: String) throws -> [UInt8] {
            guard let object = listed[prefix + name] else {
                throw at(
                    "\(export)\(name) does not exist; a DynamoDB export folder (…/AWSDynamoDB/<export id>/) holds \(ExportManifest.summaryName) and \(ExportManifest.filesName)"
                )
            }
            do { return try client.startReading(object, range: 0..<object.size).wait() } catch {
                throw at("\(error)")
            }
        }
        let manifest = try ExportManifest(
            summary: try manifest(ExportManifest.summaryName), files: try manifest(ExportManifest.filesName),
            export: export)
        let files = manifest.files
        let objects = try files.map { file in
            let location = S3Location(bucket: folder.bucket, key: prefix + file.relativePath)
            guard let object = listed[location.key] else {
                throw ExportIntegrityError(
                    export: export, file: location.description,
                    "\(ExportManifest.filesName) line \(file.manifestLine) lists this data file (\(file.key)), but there is no such object"
                )
            }
            return object
        }
        try ExportChecks.run(count: files.count) { index in
            try ExportFileCheck.verify(
                files[index], stored: open(objects[index]), location: objects[index].location.description,
                export: export)
        }
        return objects
    }
}
