import Foundation

/// Where an interrupted run stands (docs/writes.md#resume), saved by the store with every committed batch,
/// in the same transaction, so it never claims more or less than what is stored.
///
/// Per input: how many of its records are behind the last commit, the write outcomes of those
/// records, and which of them the store rejected. `importer run --resume` reads and checks
/// every record again (duplicates, references and read-stage rejections are recomputed
/// exactly) but writes only the records after `nextRecord`; the others' outcomes come from here,
/// and their write-stage rejections are listed again in rejects.ndjson.
package struct Checkpoint: Codable, Sendable, Equatable {
    package struct InputState: Codable, Sendable, Equatable {
        package var path: String
        package var fingerprint: InputFingerprint
        /// Records 0..<nextRecord (in reading order, rejected ones included) are done.
        package var nextRecord: Int
        /// Write outcomes of the done records that were applied: inserted, updated, unchanged,
        /// rolledBack and resolved conflicts (rejections are in `rejections`).
        package var written: Counts
    }

    /// The run's delete phase (`mode: sync`'s, or of children that left their documents), once it
    /// committed: what it did and deletes.ndjson's lines, saved with its deletes, so that a
    /// resumed run reports them (docs/writes.md#resume); or, on a store that cannot roll back,
    /// what it was about to delete (`planned`).
    package struct CommittedDeletes: Codable, Sendable, Equatable {
        package var phase: RunReport.DeletePhase
        package var lines: String
        /// True when the deletes were only planned: saved before the first of them by a store
        /// that cannot roll back, so that a run resuming after a kill among them plans the rest
        /// and reports those made (nil once they are all made).
        package var planned: Bool?

        package init(phase: RunReport.DeletePhase, lines: String, planned: Bool? = nil) {
            self.phase = phase
            self.lines = lines
            self.planned = planned
        }
    }

    /// A done record the store rejected (a conflict, a duplicate in insert mode, a constraint).
    package struct WriteRejection: Codable, Sendable, Equatable {
        package var path: String
        package var record: Int
        package var reason: RejectReason
        package var field: String?
        package var message: String
        /// False for a record rejected with its document, which rejects.ndjson lists in its
        /// place (docs/documents.md#rejections); nil (listed) for any other.
        package var listed: Bool? = nil
        /// A document rejected whole: every problem found in it.
        package var problems: [Problem]? = nil

        /// One problem of a document rejected whole: where, and what.
        package struct Problem: Codable, Sendable, Equatable {
            package var path: String
            package var stage: Stage
            package var reason: RejectReason
            package var field: String?
            package var message: String
        }

        /// The rejection of record `record` of the input at `path`, with its document's problems.
        package init(path: String, record: Int, _ rejection: Rejection, listed: Bool = true) {
            self.path = path
            self.record = record
            reason = rejection.reason
            field = rejection.field
            message = rejection.message
            self.listed = listed ? nil : false
            if !rejection.problems.isEmpty {
                problems = rejection.problems.map {
                    Problem(
                        path: $0.pointer, stage: $0.rejection.stage, reason: $0.rejection.reason,
                        field: $0.rejection.field, message: $0.rejection.message)
                }
            }
        }

        package var rejection: Rejection {
            var rejection = Rejection(stage: .write, reason: reason, field: field, message)
            rejection.problems = (problems ?? []).map {
                DocumentProblem(
                    pointer: $0.path,
                    rejection: Rejection(stage: $0.stage, reason: $0.reason, field: $0.field, $0.message))
            }
            return rejection
        }
    }

    /// The pipeline file this checkpoint belongs to.
    package var pipeline: String
    package var runId: String
    package var inputs: [InputState]
    /// Filled by `Store.loadCheckpoint`; a store keeps them apart from the rest, adding to them
    /// with each batch.
    package var rejections: [WriteRejection] = []
    /// The delete phase, once it committed.
    package var deletes: CommittedDeletes?

    private enum CodingKeys: String, CodingKey { case pipeline, runId, inputs, deletes }

    package init(pipeline: String, runId: String, inputs: [InputState] = []) {
        self.pipeline = pipeline
        self.runId = runId
        self.inputs = inputs
    }

    /// The state of the input at `path`, if the checkpoint has one.
    package func state(of path: String) -> InputState? {
        inputs.first { $0.path == path }
    }
}

/// What identifies an input's content: a local file's size and the digest of all its bytes
/// (`xxh64:`, see `InputDigest`), an object's size and ETag (`etag:`, docs/pipeline.md#s3-sources). `--resume`
/// continues only inputs whose fingerprint is the one in the checkpoint (docs/writes.md#resume).
package struct InputFingerprint: Codable, Sendable, Equatable {
    package var size: Int64
    /// `xxh64:<hex>` or `etag:<ETag>`. (Stored under the name of the first MiB's SHA-256, which
    /// it replaced: a checkpoint written with that never matches, so it is never resumed on a
    /// guess.)
    package var content: String

    private enum CodingKeys: String, CodingKey {
        case size
        case content = "headSHA256"
    }

    package init(size: Int64, content: String) {
        self.size = size
        self.content = content
    }

    /// The fingerprint of the local file at `path` as it is now (`digest`: one taken already).
    /// Throws `ConfigurationError` if it cannot be read, or changed while it was hashed.
    init(of path: String, digest: InputDigest? = nil) throws {
        guard let digest = digest ?? InputDigest(of: path) else {
            throw ConfigurationError(
                file: path,
                "cannot read the input, or it changed while it was read; if it is still being written, run once it is complete"
            )
        }
        size = digest.identity.size
        content = "xxh64:" + digest.hex
    }
}
