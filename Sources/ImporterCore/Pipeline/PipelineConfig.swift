/// A pipeline file (docs/pipeline.md), parsed and checked, with every path resolved.
public struct PipelineConfig: Sendable {
    public var name: String
    /// The pipeline file's path.
    public var file: String
    public var modelPath: String
    /// Pins a model version; nil means the newest in the model directory.
    public var modelVersion: Int?
    public var sources: [SourceConfig]
    public var destination: DestinationConfig
    public var write: WriteConfig
    public var retry: RetryConfig
    public var errors: ErrorLimits
    public var reportDirectory: String
    /// `s3:` — where `s3://` sources are read from (docs/pipeline.md#s3-sources).
    public var s3 = S3Config()
    /// The objects `s3://` sources name, by URL, as listed when the run started (the readers
    /// and checkpoints use their size and ETag); empty until the command lists them.
    public var objects: [String: RemoteObject] = [:]
    /// SHA-256 of the pipeline file as read, with the value each `${VAR}` in it had: two
    /// configurations with the same digest read their inputs the same way. Nil for one built
    /// in code (its runs do not skip unchanged inputs).
    public var textDigest: String?

    /// The first source that reads from object storage (an `s3://` path), if any.
    public var firstObjectSource: SourceConfig? {
        sources.first { $0.paths.contains { $0.hasPrefix("s3://") } }
    }
}

/// The `s3:` section: an endpoint (path-style requests, for MinIO or moto) and a region, each
/// else from the environment (`AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`; `AWS_REGION`).
public struct S3Config: Sendable {
    public var endpoint: String?
    public var region: String?

    public init() {}
}

/// An object in object storage as listed: what identifies its content for `--resume`.
public struct RemoteObject: Sendable, Equatable {
    public let size: Int64
    public let etag: String

    public init(size: Int64, etag: String) {
        self.size = size
        self.etag = etag
    }
}

/// One input of a pipeline: an entity and the files holding its records.
public struct SourceConfig: Sendable {
    public var entity: String
    /// The `path:` as written (for messages).
    public var pattern: String
    /// Matching files, sorted.
    public var paths: [String]
    public var format: InputFormat?
    public var csv: CSVOptions
    /// The model version the dump was written against (record migration is a later step).
    public var modelVersion: Int?
    public var map: MapConfig
    /// What to do with a reference that names no item.
    public var references: ReferencePolicies
    /// The line of this source in the pipeline file.
    public var line: Int?
    /// A record longer than this is rejected (reason `size`) and skipped in bounded memory.
    public var maxRecordBytes = SourceConfig.defaultMaxRecordBytes

    /// 64 MiB.
    public static let defaultMaxRecordBytes = 64 << 20
    /// What `maxRecordBytes` may be set to: a record must fit a parser's 32-bit lengths.
    public static let maxRecordBytesRange = 1...(1 << 30)

    public init(entity: String, pattern: String, paths: [String], format: InputFormat?, csv: CSVOptions = CSVOptions(),
                modelVersion: Int? = nil, map: MapConfig = MapConfig(), references: ReferencePolicies = ReferencePolicies(),
                line: Int? = nil) {
        self.references = references
        self.entity = entity
        self.pattern = pattern
        self.paths = paths
        self.format = format
        self.csv = csv
        self.modelVersion = modelVersion
        self.map = map
        self.line = line
    }
}

/// CSV/TSV reading options.
public struct CSVOptions: Sendable, Equatable {
    public var delimiter: UInt8 = UInt8(ascii: ",")
    public var quote: UInt8 = UInt8(ascii: "\"")
    public var header = true
    /// Column names when the file has no header row.
    public var columns: [String]?
    /// Unquoted cells with these texts are null; a quoted cell is never null.
    public var nullValues: [String] = [""]

    public init() {}
}

/// The map stage of a source: rename, drop, defaults, computed attributes, unknown fields,
/// date format.
public struct MapConfig: Sendable {
    /// Source field name → attribute name.
    public var rename: [String: String] = [:]
    public var drop: Set<String> = []
    /// Attribute name → value (as text) used where the record has null or lacks the field.
    public var defaults: [String: String] = [:]
    /// Attribute name → the template its value is made of, from source fields.
    public var compute: [String: FieldTemplate] = [:]
    public var ignoreUnknown = false
    public var dateFormat: DateFormat = .iso8601

    public init() {}
}

public struct DestinationConfig: Sendable {
    public enum Kind: String, Sendable { case sqlite, dynamodb }
    public var kind: Kind = .sqlite
    public var path: String?
    public var region: String?
    public var endpoint: String?
    public var tablePrefix = ""
    public var createTables = false
    /// DynamoDB: how dates are stored, `iso8601` (S) or `epochSeconds` (N).
    public var dateEncoding = "iso8601"
}

/// How records are written (docs/writes.md).
public struct WriteConfig: Sendable {
    public enum Mode: String, Sendable { case insert, upsert, replace, sync }
    public enum Versions: String, Sendable { case check, preserve, ignore }
    public enum MergePolicy: String, Sendable { case error, storeTrump, objectTrump, overwrite, rollback }
    /// `maxDeletes`: a count or a percentage of the entity's stored items.
    public enum DeleteLimit: Sendable, Equatable { case count(Int), percent(Double) }

    public var mode: Mode = .upsert
    public var versions: Versions = .check
    public var mergePolicy: MergePolicy = .error
    /// Records per transaction; nil means the destination's default.
    public var batchSize: Int?
    public var transactional = true
    public var concurrency = 4
    public var atomic = false
    /// SQLite: an entity whose table is empty is staged and its table built in key order at
    /// the end of the run (the bulk path); false writes it record by record.
    public var bulk = true
    public var maxDeletes: DeleteLimit = .percent(10)
    /// DynamoDB: write capacity units a second the run stays under (docs/dynamodb.md); nil for no limit.
    public var maxWCU: Double?

    public init() {}
}

public struct RetryConfig: Sendable {
    /// `adaptive`: throttling slows every request of the run (the AWS SDKs' adaptive retry
    /// mode, docs/dynamodb.md); `standard`: each request retries on its own.
    public enum Mode: String, Sendable { case adaptive, standard }

    public var mode: Mode = .adaptive
    public var maxAttempts = 8
    public var baseDelay = 0.05
    public var maxDelay = 5.0
}

/// How many rejected records a run may have (docs/reports.md#error-limits). Past a limit before the end of the
/// input the run aborts (exit 3; committed batches stay); past one at the end it is `partial`.
public struct ErrorLimits: Sendable {
    public var maxErrors = 1000
    public var maxErrorRatio = 0.05
    /// `maxErrorRatio` applies once this many records were read: a few bad records among the
    /// first ones, or in a small file, are no share to judge a run by.
    public var minRecords = 1000
}
