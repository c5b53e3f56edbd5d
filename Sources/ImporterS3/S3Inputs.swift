#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import ImporterAWS
import ImporterCore
import ImporterFormats

/// The `s3://` sources of a pipeline (docs/pipeline.md#s3-sources): their key patterns listed into objects when a
/// command starts, and each object opened as the input of its format's reader.
package struct S3Inputs: Sendable {
    let client: S3Client

    /// The client for `config`'s `s3:` section and the environment (credentials, region,
    /// endpoint: `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`; path-style at an explicit endpoint).
    package init(config: PipelineConfig, environment: AWSEnvironment) throws {
        do {
            let region = try environment.region(pipelineRegion: config.s3.region)
            let explicit = try environment.explicitEndpoint(pipelineEndpoint: config.s3.endpoint, service: .s3)
            let configuration = AWSResolvedConfiguration(
                credentials: try environment.credentials(), region: region,
                endpoint: try environment.endpoint(pipelineEndpoint: config.s3.endpoint, region: region, service: .s3))
            client = S3Client(
                configuration: configuration, pathStyleEndpoint: explicit,
                retry: RetryPolicy(
                    maxAttempts: config.retry.maxAttempts, baseDelay: config.retry.baseDelay,
                    maxDelay: config.retry.maxDelay))
        } catch {
            throw ConfigurationError(file: config.file, key: "s3", "\(error)")
        }
    }

    /// Replaces each `s3://` pattern by the objects it matches, in key order, and records their
    /// sizes and ETags in `config.objects`. A pattern that matches nothing is an error.
    package func expand(_ config: inout PipelineConfig) throws {
        // An export folder's data files come from its manifest (`expandExports`).
        for index in config.sources.indices where config.sources[index].format != .dynamodbExport {
            var paths: [String] = []
            for path in config.sources[index].paths {
                guard let location = S3Location(path) else {
                    paths.append(path)
                    continue
                }
                let matches = try list(location, config: config, source: config.sources[index])
                for object in matches {
                    paths.append(object.location.description)
                    config.objects[object.location.description] = RemoteObject(size: object.size, etag: object.etag)
                }
            }
            config.sources[index].paths = paths
        }
    }

    private func list(_ location: S3Location, config: PipelineConfig, source: SourceConfig) throws -> [S3Object] {
        let at = { (message: String) in ConfigurationError(file: config.file, line: source.line, key: "path", message) }
        let listed: [S3Object]
        do {
            listed = try client.listing(bucket: location.bucket, prefix: location.listingPrefix)
        } catch {
            throw at("\(error)")
        }
        // `*` and `?` stay within one level of the key, as in local paths.
        let matches =
            location.isPattern
            ? listed.filter { fnmatch(location.key, $0.location.key, FNM_PATHNAME) == 0 }
            : listed.filter { $0.location.key == location.key }
        guard !matches.isEmpty else {
            throw at(
                location.isPattern ? "no object matches '\(location)'" : "input object '\(location)' does not exist")
        }
        return matches
    }

    /// The object at `location` (an archive to restore), as listed now.
    package func object(at location: S3Location) throws -> S3Object {
        let listed = try client.listing(bucket: location.bucket, prefix: location.key)
        guard let object = listed.first(where: { $0.location.key == location.key }) else {
            throw S3Error(
                operation: "ListObjectsV2", location: location.description, status: 404, code: "NoSuchKey",
                message: "no object has this key")
        }
        return object
    }

    /// The bytes of `object`, streamed in ranges (each read of an archive opens it anew).
    package func open(_ object: S3Object) -> ByteSource {
        S3ObjectSource(client: client, object: object)
    }

    /// The reader of one input: an S3 object streamed in ranges, or a local file.
    package func makeReader(source: SourceConfig, path: String, object: RemoteObject?) throws -> RecordReader {
        guard let location = S3Location(path), let object else {
            return try ReaderFactory.makeReader(source: source, path: path)
        }
        let bytes = S3ObjectSource(
            client: client, object: S3Object(location: location, size: object.size, etag: object.etag))
        return try ReaderFactory.makeReader(source: source, bytes: bytes, name: path)
    }
}

extension S3Inputs {
    /// An uploader of a new object at `location` (an archive `export` writes).
    package func uploader(to location: S3Location) -> S3PartUploader {
        S3PartUploader(client: client, location: location)
    }
}
