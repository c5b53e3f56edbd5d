import Foundation

/// Everything a run did, as written to `report.json`.
package struct RunReport: Codable, Sendable {
    package typealias Status = RunStatus

    package struct ModelInfo: Codable, Sendable {
        package var name: String
        package var version: Int
        package var checksum: String
    }

    package struct Destination: Codable, Sendable {
        package var type: String
        package var path: String?
    }

    package struct InputReport: Codable, Sendable {
        package var source: String
        package var entity: String
        package var format: String
        package var bytes: Int64
        package var seconds: Double
        package var counts: Counts
        /// The file's digest (XXH64 of its blocks, docs/writes.md#inputs-unchanged-since-the-last-run),
        /// when the run took one: local files of an upsert run with checkpoints.
        package var digest: String?
    }

    package struct EntityReport: Codable, Sendable {
        package var entity: String
        package var seconds: Double
        package var rowsPerSecond: Double
        package var counts: Counts
        /// Missing references stored anyway (`references: nullify` or `keep`), by relationship.
        package var references: [String: MissingReferences]?
        /// The reference policy the run applied to each to-one relationship with keys:
        /// `reject`, `nullify` or `keep` (several, joined by `/`, when its sources differ).
        package var referencePolicies: [String: String]?
        /// How the store wrote the entity: `bulk` (staged, then built in key order when the run
        /// finished), `incremental` (record by record) or `unchangedInput` (nothing to read or
        /// write: see `unchangedSince`); nil in a dry run.
        package var writePath: WritePath?
    }

    package enum WritePath: String, Codable, Sendable {
        case bulk, incremental, unchangedInput
    }

    /// References of one relationship that named no item and were nullified or kept.
    package struct MissingReferences: Codable, Sendable {
        package var target: String
        package var action: String
        package var missing: Int
        package var examples: [RejectExample]
    }

    package struct RejectExample: Codable, Sendable {
        package var source: String
        package var line: Int
        package var key: ReportedKey?
        package var message: String
    }

    /// Rejections of one entity with the same stage, reason and field (and, for references,
    /// the same target entity).
    package struct ErrorGroup: Codable, Sendable {
        package var entity: String
        package var stage: Stage
        package var reason: RejectReason
        package var field: String?
        package var target: String?
        package var count: Int
        package var examples: [RejectExample]
    }

    package var runId: String
    package var pipeline: String
    package var pipelineFile: String
    package var dryRun: Bool
    package var status: Status
    /// Why the run stopped early, when it did.
    package var abortReason: String?
    /// What stopped it: `input`, `errorLimit`, `store` or `interrupted`.
    package var abortCause: AbortReason.Cause?
    /// A store that stopped the run: how it failed (`StoreError.Kind.name`: `storage`,
    /// `throttled`, `network`, …).
    package var storeFailure: String?
    /// The error limit (`errors.maxErrors`, `errors.maxErrorRatio`) the run passed, with the
    /// counts: before the end of its input the run aborted, at the end it is `partial`.
    package var errorLimit: String?
    package var exitCode: Int32
    package var startedAt: Date
    package var finishedAt: Date
    package var seconds: Double
    package var model: ModelInfo
    package var destination: Destination
    package var totals: Counts
    package var entities: [EntityReport]
    package var inputs: [InputReport]
    package var errors: [ErrorGroup]
    /// A run with a document source: its documents, which its error limits count.
    package var documents: DocumentCounts?
    /// `mode: sync` only: what the delete phase did (every deleted key is in deletes.ndjson).
    package var deletes: DeletePhase?
    /// `--resume`: the interrupted run continued, and how many of its records it had done.
    package var resumed: Resume?
    /// The runs summed into this report by `importer report merge` (the shards of one run).
    package var mergedRuns: [String]?
    /// The run that stored every record of these inputs, when this one found them unchanged
    /// since (the same bytes, pipeline and model, nothing written to the store) and read none:
    /// each input's records are counted read and unchanged.
    package var unchangedSince: String?
    /// `--shard K/N`: which slice of which run this report counts (docs/reports.md).
    package var shard: ShardOfRun?
    /// The stages' throughput over the run, sampled every second.
    package var timeline: Timeline?

    /// The documents of a run's document sources (docs/documents.md), each its root's record:
    /// what `errors.maxErrors` and `maxErrorRatio` count (docs/reports.md#error-limits), with
    /// the records of those documents beside them.
    package struct DocumentCounts: Codable, Sendable, Equatable {
        /// Documents read, malformed ones included.
        package var read = 0
        /// Documents rejected whole.
        package var rejected = 0
        /// The records of the documents read: their roots and every element.
        package var records = 0
        /// Their records rejected: with their document, or as an element (`documents: partial`).
        package var recordsRejected = 0
        /// The documents a store that cannot write one as a unit left part-written (nil: none).
        package var partWritten: [PartWritten]?

        package init() {}

        /// A document some of whose records were written and others not: DynamoDB without
        /// transactions, or a document of more than 100 items, sent parents first
        /// (docs/documents.md#part-written-documents).
        package struct PartWritten: Codable, Sendable, Equatable {
            package var source: String
            package var line: Int
            /// Its root's entity and key.
            package var entity: String
            package var key: ReportedKey?
            /// Its records written, and those not: refused, under a refused one, or not sent.
            package var written: Int
            package var notWritten: Int

            package init(source: String, line: Int, entity: String, key: ReportedKey?, written: Int, notWritten: Int) {
                (self.source, self.line, self.entity, self.key) = (source, line, entity, key)
                (self.written, self.notWritten) = (written, notWritten)
            }
        }
    }

    package struct Resume: Codable, Sendable {
        package var runId: String
        package var recordsDone: Int
    }

    /// The delete phase of a sync run.
    package struct DeletePhase: Codable, Sendable, Equatable {
        /// `documents` when the items deleted are children that left their re-loaded documents
        /// (docs/documents.md#re-loading-a-document); nil for `mode: sync`.
        package var phase: String?
        /// Why nothing was deleted, when the phase was refused (`maxDeletes`, an aborted run, …).
        package var refused: String?
        /// Items deleted per entity, cascades included.
        package var deleted: [String: Int] = [:]
        /// Dependants whose key was cleared by a `nullify` rule.
        package var nullified = 0
        /// Vanished items kept, and why (`deny`, a dependant in the input, a concurrent change).
        package var denied: [DeniedDelete] = []
        /// What the operator should know of the deletes: children deleted because their documents
        /// left their array out (docs/documents.md#missing-arrays).
        package var warnings: [String]?

        package init() {}

        init(_ outcome: SyncDeletes.Outcome) {
            refused = outcome.refused
            deleted = outcome.deleted.reduce(into: [:]) { $0[$1.entity, default: 0] += 1 }
            nullified = outcome.nullified.count
            for made in outcome.madeBefore {
                if made.deleted { deleted[made.entity, default: 0] += 1 } else { nullified += 1 }
            }
            denied = outcome.denied.map {
                DeniedDelete(entity: $0.entity, key: $0.key.description, message: $0.message)
            }
        }
    }

    package struct DeniedDelete: Codable, Sendable, Equatable {
        package var entity: String
        package var key: String
        package var message: String
    }
}
