import Foundation
import ImporterArchive
import ImporterCore
import ImporterFormats
#if DynamoDB
    import ImporterAWS
    import ImporterS3
#endif

/// The inputs of `run` and `validate`: local files, and objects in S3 for `s3://` paths
/// (docs/pipeline.md#s3-sources), listed before the run starts.
enum ObjectInputs {
    /// Lists the objects `config`'s `s3://` sources name (into `config`), checks DynamoDB export
    /// folders against their manifests (`ExportIntegrityError` before anything is written) and
    /// returns the readers' factory for every input.
    static func prepare(_ config: inout PipelineConfig) throws -> PipelineRun.RecordReaderMaker {
        try LocalExports.expand(&config)
        #if DynamoDB
            guard config.firstObjectSource != nil else { return ReaderFactory.makeReader }
            let inputs = try S3Inputs(config: config, environment: .current)
            try inputs.expandExports(&config)
            try inputs.expand(&config)
            let objects = config.objects
            return { source, path in try inputs.makeReader(source: source, path: path, object: objects[path]) }
        #else
            if let source = config.firstObjectSource {
                throw awsClientsUnavailable(file: config.file, line: source.line, key: "path", to: "read s3:// inputs")
            }
            return ReaderFactory.makeReader
        #endif
    }

    /// What `restore` reads: a local archive, or an `s3://bucket/key` object streamed (once to
    /// verify it, once to load it; each range must keep the listed ETag).
    static func archive(_ path: String, config: PipelineConfig) throws -> ArchiveInput {
        guard path.hasPrefix("s3://") else {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw ConfigurationError(
                    file: path, "the archive does not exist; name a file `importer export` wrote, or s3://BUCKET/KEY")
            }
            if isFolder.boolValue {
                throw ConfigurationError(file: path, "is a folder; name the archive file `importer export` wrote")
            }
            return .file(path)
        }
        #if DynamoDB
            guard let location = S3Location(path) else {
                throw ConfigurationError(file: path, "not an S3 path; write s3://BUCKET/KEY")
            }
            let inputs = try S3Inputs(config: config, environment: .current)
            let object: S3Object
            do { object = try inputs.object(at: location) } catch { throw ConfigurationError(file: path, "\(error)") }
            return .stream(name: path) { inputs.open(object) }
        #else
            throw awsClientsUnavailable(file: path, to: "restore from S3")
        #endif
    }
}
