import Foundation

/// Everything a run did, as written to `report.json`.
public struct RunReport: Codable, Sendable {
    public enum Status: String, Codable, Sendable {
        /// Every record accounted for and none rejected.
        case succeeded
        /// Finished, with rejections (perhaps past an error limit at the end of the input).
        case partial
        /// Stopped early (an error limit passed before the end of the input, a store
        /// failure); committed batches stay.
        case aborted
        /// Stopped early because it was asked to (SIGINT, SIGTERM): the batch in flight was
        /// finished or rolled back; committed batches stay, and `--resume` continues after them.
        case interrupted

        /// Whether the run stopped before the end of its input.
        public var stoppedEarly: Bool { self == .aborted || self == .interrupted }
    }

    public struct ModelInfo: Codable, Sendable {
        public var name: String
        public var version: Int
        public var checksum: String
    }

    public struct Destination: Codable, Sendable {
        public var type: String
        public var path: String?
    }

    public struct InputReport: Codable, Sendable {
        public var source: String
        public var entity: String
        public var format: String
        public var bytes: Int64
        public var seconds: Double
        public var counts: Counts
    }

    public struct EntityReport: Codable, Sendable {
        public var entity: String
        public var seconds: Double
        public var rowsPerSecond: Double
        public var counts: Counts
        /// Missing references stored anyway (`references: nullify` or `keep`), by relationship.
        public var references: [String: MissingReferences]?
        /// The reference policy the run applied to each to-one relationship with keys:
        /// `reject`, `nullify` or `keep` (several, joined by `/`, when its sources differ).
        public var referencePolicies: [String: String]?
        /// How the store wrote the entity: `bulk` (staged, then built in key order when the run
        /// finished), `incremental` (record by record) or `unchangedInput` (nothing to read or
        /// write: see `unchangedSince`); nil in a dry run.
        public var writePath: WritePath?
    }

    public enum WritePath: String, Codable, Sendable {
        case bulk, incremental, unchangedInput
    }

    /// References of one relationship that named no item and were nullified or kept.
    public struct MissingReferences: Codable, Sendable {
        public var target: String
        public var action: String
        public var missing: Int
        public var examples: [RejectExample]
    }

    public struct RejectExample: Codable, Sendable {
        public var source: String
        public var line: Int
        public var key: ReportedKey?
        public var message: String
    }

    /// Rejections of one entity with the same stage, reason and field (and, for references,
    /// the same target entity).
    public struct ErrorGroup: Codable, Sendable {
        public var entity: String
        public var stage: Stage
        public var reason: RejectReason
        public var field: String?
        public var target: String?
        public var count: Int
        public var examples: [RejectExample]
    }

    public var runId: String
    public var pipeline: String
    public var pipelineFile: String
    public var dryRun: Bool
    public var status: Status
    /// Why the run stopped early, when it did.
    public var abortReason: String?
    /// The error limit (`errors.maxErrors`, `errors.maxErrorRatio`) the run passed, with the
    /// counts: before the end of its input the run aborted, at the end it is `partial`.
    public var errorLimit: String?
    public var exitCode: Int32
    public var startedAt: Date
    public var finishedAt: Date
    public var seconds: Double
    public var model: ModelInfo
    public var destination: Destination
    public var totals: Counts
    public var entities: [EntityReport]
    public var inputs: [InputReport]
    public var errors: [ErrorGroup]
    /// `mode: sync` only: what the delete phase did (every deleted key is in deletes.ndjson).
    public var deletes: DeletePhase?
    /// `--resume`: the interrupted run continued, and how many of its records it had done.
    public var resumed: Resume?
    /// The runs summed into this report by `importer report merge` (the shards of one run).
    public var mergedRuns: [String]?
    /// The run that stored every record of these inputs, when this one found them unchanged
    /// since (the same bytes, pipeline and model, nothing written to the store) and read none:
    /// each input's records are counted read and unchanged.
    public var unchangedSince: String?
    /// `--shard K/N`: which slice of which run this report counts (docs/reports.md).
    public var shard: ShardOfRun?

    public struct Resume: Codable, Sendable {
        public var runId: String
        public var recordsDone: Int
    }

    /// The delete phase of a sync run.
    public struct DeletePhase: Codable, Sendable {
        /// Why nothing was deleted, when the phase was refused (`maxDeletes`, an aborted run, …).
        public var refused: String?
        /// Items deleted per entity, cascades included.
        public var deleted: [String: Int] = [:]
        /// Dependants whose key was cleared by a `nullify` rule.
        public var nullified = 0
        /// Vanished items kept, and why (`deny`, a dependant in the input, a concurrent change).
        public var denied: [DeniedDelete] = []

        public init() {}

        init(_ outcome: SyncDeletes.Outcome) {
            refused = outcome.refused
            deleted = outcome.deleted.reduce(into: [:]) { $0[$1.entity, default: 0] += 1 }
            nullified = outcome.nullified.count
            denied = outcome.denied.map { DeniedDelete(entity: $0.entity, key: $0.key.description, message: $0.message) }
        }
    }

    public struct DeniedDelete: Codable, Sendable {
        public var entity: String
        public var key: String
        public var message: String
    }
}
