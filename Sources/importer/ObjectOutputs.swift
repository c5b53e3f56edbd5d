import Foundation
import ImporterArchive
import ImporterCore
#if DynamoDB
    import ImporterS3
#endif

/// Where `export` writes: a local file, or an `s3://bucket/key` object uploaded in parts as the
/// archive is written (docs/archives.md), with no local copy.
enum ObjectOutputs {
    static func destination(_ out: String, kind: ArchiveKind, config: PipelineConfig) throws -> ArchiveDestination {
        guard out.hasPrefix("s3://") else { return .file(out) }
        #if DynamoDB
            guard let location = S3Location(out), !location.key.isEmpty, !location.isPattern else {
                throw ConfigurationError(file: out, "not an S3 object path; write s3://BUCKET/KEY.tar.zst")
            }
            guard kind.isStreamable else {
                throw ConfigurationError(
                    file: out,
                    "an archive is uploaded to S3 as it is written, which .tar.xz and .zip cannot be; end the name with .tar.zst, .tar.gz or .tar"
                )
            }
            let inputs = try S3Inputs(config: config, environment: .current)
            return .parts(name: out, uploader: inputs.uploader(to: location))
        #else
            throw awsClientsUnavailable(file: out, to: "export to S3")
        #endif
    }

    /// The size of the archive written to `destination`.
    static func size(of destination: ArchiveDestination) -> Int64 {
        switch destination {
        case .file(let path):
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        case .parts(_, let uploader): uploader.bytes
        }
    }

    /// Why a failed upload could not be aborted (it stays in the bucket), if it could not.
    static func abortFailure(of destination: ArchiveDestination) -> String? {
        guard case .parts(_, let uploader) = destination else { return nil }
        return uploader.abortFailure
    }
}

#if DynamoDB
    extension S3PartUploader: ArchivePartUploader {}
#endif
