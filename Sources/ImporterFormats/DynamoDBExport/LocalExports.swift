import Foundation
import ImporterCore

/// DynamoDB export folders on disk (`format: dynamodb-export` with a local `path`): each is
/// replaced by its data files, once every one of them matches the manifest (docs/pipeline.md#dynamodb-exports).
package enum LocalExports {
    /// Checks every local export folder of `config`'s sources and makes its data files the
    /// source's inputs (`s3://` folders are left to the S3 inputs). Throws `ConfigurationError`
    /// when a folder has no manifests, `ExportIntegrityError` when a data file is missing or
    /// differs from the manifest.
    package static func expand(_ config: inout PipelineConfig) throws {
        for index in config.sources.indices where config.sources[index].format == .dynamodbExport {
            var paths: [String] = []
            for path in config.sources[index].paths {
                guard !path.hasPrefix("s3://") else {
                    paths.append(path)
                    continue
                }
                paths += try verifiedDataFiles(folder: path, source: config.sources[index], pipelineFile: config.file)
            }
            config.sources[index].paths = paths
        }
    }

    /// The data files of the export in `folder`, in manifest order, each checked (a few at once).
    static func verifiedDataFiles(folder: String, source: SourceConfig, pipelineFile: String) throws -> [String] {
        let manifest = try ExportManifest(
            summary: try manifestBytes(folder, ExportManifest.summaryName, source, pipelineFile),
            files: try manifestBytes(folder, ExportManifest.filesName, source, pipelineFile),
            export: folder)
        let files = manifest.files
        let paths = files.map { FilePaths.join(folder, $0.relativePath) }
        try ExportChecks.run(count: files.count) { index in
            let file = files[index], path = paths[index]
            guard FileManager.default.fileExists(atPath: path) else {
                throw ExportIntegrityError(
                    export: folder, file: path,
                    "\(ExportManifest.filesName) line \(file.manifestLine) lists this data file (\(file.key)), but it is missing"
                )
            }
            let stored: ByteSource
            do { stored = try FileSource(path: path) } catch let error as InputError {
                throw ExportIntegrityError(export: folder, file: path, error.message)
            }
            try ExportFileCheck.verify(file, stored: stored, location: path, export: folder)
        }
        return paths
    }

    /// A manifest's bytes; its absence means the path is not an export folder.
    private static func manifestBytes(_ folder: String, _ name: String, _ source: SourceConfig, _ pipelineFile: String)
        throws -> [UInt8]
    {
        let path = FilePaths.join(folder, name)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(
                file: pipelineFile, line: source.line, key: "path",
                "\(path) cannot be read; a DynamoDB export folder (…/AWSDynamoDB/<export id>/) holds \(ExportManifest.summaryName) and \(ExportManifest.filesName)"
            )
        }
        return Array(data)
    }
}
