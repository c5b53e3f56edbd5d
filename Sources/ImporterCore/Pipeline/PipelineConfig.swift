/// A pipeline file (docs/pipeline.md), parsed and checked, with every path resolved.
package struct PipelineConfig: Sendable {
    package var name: String
    /// The pipeline file's path.
    package var file: String
    package var modelPath: String
    /// Pins a model version; nil means the newest in the model directory.
    package var modelVersion: Int?
    package var sources: [SourceConfig]
    package var destination: DestinationConfig
    package var write: WriteConfig
    package var retry: RetryConfig
    package var errors: ErrorLimits
    package var reportDirectory: String
    /// `report.metrics`: a metrics file the CLI writes beside report.json (docs/reports.md#metrics).
    package var reportMetrics: ReportMetrics?
    /// `s3:` — where `s3://` sources are read from (docs/pipeline.md#s3-sources).
    package var s3 = S3Config()
    /// The objects `s3://` sources name, by URL, as listed when the run started (the readers
    /// and checkpoints use their size and ETag); empty until the command lists them.
    package var objects: [String: RemoteObject] = [:]
    /// SHA-256 of the pipeline file as read, with the value each `${VAR}` in it had: two
    /// configurations with the same digest read their inputs the same way. Nil for one built
    /// in code (its runs do not skip unchanged inputs).
    package var textDigest: String?

    /// The first source that reads from object storage (an `s3://` path), if any.
    package var firstObjectSource: SourceConfig? {
        sources.first { $0.paths.contains { $0.hasPrefix("s3://") } }
    }
}

/// The `s3:` section: an endpoint (path-style requests, for MinIO or moto) and a region, each
/// else from the environment (`AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`; `AWS_REGION`).
package struct S3Config: Sendable {
    package var endpoint: String?
    package var region: String?

    package init() {}
}

/// An object in object storage as listed: what identifies its content for `--resume`.
package struct RemoteObject: Sendable, Equatable {
    package let size: Int64
    package let etag: String

    package init(size: Int64, etag: String) {
        self.size = size
        self.etag = etag
    }
}

/// One input of a pipeline: an entity and the files holding its records.
package struct SourceConfig: Sendable {
    package var entity: String
    /// The `path:` as written (for messages).
    package var pattern: String
    /// Matching files, sorted.
    package var paths: [String]
    package var format: InputFormat?
    package var csv: CSVOptions
    /// The model version the dump was written against (record migration is a later step).
    package var modelVersion: Int?
    package var map: MapConfig
    /// What to do with a reference that names no item.
    package var references: ReferencePolicies
    /// The line of this source in the pipeline file.
    package var line: Int?
    /// A record longer than this is rejected (reason `size`) and skipped in bounded memory.
    package var maxRecordBytes = SourceConfig.defaultMaxRecordBytes
    /// Arrays of objects in each record that load into child entities (docs/documents.md).
    package var children: [ChildSource] = []
    /// What an invalid element costs its document.
    package var documents = DocumentPolicy.whole

    /// Whether the source's records are read as documents: it has children, or its map reads
    /// paths into nested objects.
    package var readsDocuments: Bool { !children.isEmpty || !map.paths.isEmpty }
    /// The text's encoding (`encoding:`); nil: UTF-8, or UTF-16 when the input starts with a
    /// UTF-16 byte order mark (docs/pipeline.md#encodings).
    package var encoding: TextEncoding?

    /// 64 MiB.
    package static let defaultMaxRecordBytes = 64 << 20
    /// What `maxRecordBytes` may be set to: a record must fit a parser's 32-bit lengths.
    package static let maxRecordBytesRange = 1...(1 << 30)

    package init(
        entity: String, pattern: String, paths: [String], format: InputFormat?, csv: CSVOptions = CSVOptions(),
        modelVersion: Int? = nil, map: MapConfig = MapConfig(), references: ReferencePolicies = ReferencePolicies(),
        line: Int? = nil
    ) {
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
package struct CSVOptions: Sendable, Equatable {
    package var delimiter: UInt8 = UInt8(ascii: ",")
    package var quote: UInt8 = UInt8(ascii: "\"")
    package var header = true
    /// Column names when the file has no header row.
    package var columns: [String]?
    /// Unquoted cells with these texts are null; a quoted cell is never null.
    package var nullValues: [String] = [""]

    package init() {}
}

/// The map stage of a source: rename, drop, defaults, computed attributes, unknown fields,
/// date format.
package struct MapConfig: Sendable {
    /// Source field name → attribute name.
    package var rename: [String: String] = [:]
    package var drop: Set<String> = []
    /// Attribute name → value (as text) used where the record has null or lacks the field.
    package var defaults: [String: String] = [:]
    /// Attribute name → the template its value is made of, from source fields.
    package var compute: [String: FieldTemplate] = [:]
    package var ignoreUnknown = false
    package var dateFormat: DateFormat = .iso8601
    /// Attribute name → the dotted path of its value in nested objects (`currency.code`).
    package var fields: [String: String] = [:]

    package init() {}

    /// The dotted paths the map reads: `fields`' paths and `compute`'s `{a.b}` fields.
    package var paths: Set<String> {
        Set(fields.values).union(compute.values.flatMap(\.fields).filter { $0.contains(".") })
    }

    /// The first keys of the map's paths of more than one key (`currency` of `currency.code`).
    package var pathRoots: Set<String> {
        Set(paths.compactMap { path in path.firstIndex(of: ".").map { String(path[..<$0]) } })
    }
}

package struct DestinationConfig: Sendable {
    package enum Kind: String, Sendable { case sqlite, dynamodb }
    package var kind: Kind = .sqlite
    package var path: String?
    package var region: String?
    package var endpoint: String?
    package var tablePrefix = ""
    package var createTables = false
    /// DynamoDB: how dates are stored, `iso8601` (S) or `epochSeconds` (N).
    package var dateEncoding = "iso8601"
}

/// How records are written (docs/writes.md).
package struct WriteConfig: Sendable {
    package enum Mode: String, Sendable { case insert, upsert, replace, sync }
    package enum Versions: String, Sendable { case check, preserve, ignore }
    package enum MergePolicy: String, Sendable { case error, storeTrump, objectTrump, overwrite, rollback }
    /// `maxDeletes`: a count or a percentage of the entity's stored items.
    package enum DeleteLimit: Sendable, Equatable { case count(Int), percent(Double) }

    package var mode: Mode = .upsert
    package var versions: Versions = .check
    package var mergePolicy: MergePolicy = .error
    /// Records per transaction; nil means the destination's default.
    package var batchSize: Int?
    package var transactional = true
    package var concurrency = 4
    package var atomic = false
    /// SQLite: an entity whose table is empty is staged and its table built in key order at
    /// the end of the run (the bulk path); false writes it record by record.
    package var bulk = true
    package var maxDeletes: DeleteLimit = .percent(10)
    /// DynamoDB: write capacity units a second the run stays under (docs/dynamodb.md); nil for no limit.
    package var maxWCU: Double?

    package init() {}
}

package struct RetryConfig: Sendable {
    /// `adaptive`: throttling slows every request of the run (the AWS SDKs' adaptive retry
    /// mode, docs/dynamodb.md); `standard`: each request retries on its own.
    package enum Mode: String, Sendable { case adaptive, standard }

    package var mode: Mode = .adaptive
    package var maxAttempts = 8
    package var baseDelay = 0.05
    package var maxDelay = 5.0
}

/// How many rejected records a run may have (docs/reports.md#error-limits). Past a limit before the end of the
/// input the run aborts (exit 3; committed batches stay); past one at the end it is `partial`.
package struct ErrorLimits: Sendable {
    package var maxErrors = 1000
    package var maxErrorRatio = 0.05
    /// `maxErrorRatio` applies once this many records were read: a few bad records among the
    /// first ones, or in a small file, are no share to judge a run by.
    package var minRecords = 1000
}

/// The metrics files a run can write beside report.json (docs/reports.md#metrics).
package enum ReportMetrics: String, Sendable {
    /// `metrics.prom`, in the Prometheus text format (node-exporter's textfile collector).
    case prometheus
}
