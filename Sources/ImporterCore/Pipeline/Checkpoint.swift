import Foundation

/// Where an interrupted run stands (SPEC §12), saved by the store with every committed batch,
/// in the same transaction, so it never claims more or less than what is stored.
///
/// Per input: how many of its records are behind the last commit, the write outcomes of those
/// records, and which of them the store rejected. `importer run --resume` reads and checks
/// every record again (duplicates, references and read-stage rejections are recomputed
/// exactly) but writes only the records after `nextRecord`; the others' outcomes come from here,
/// and their write-stage rejections are listed again in rejects.ndjson.
public struct Checkpoint: Codable, Sendable, Equatable {
    public struct InputState: Codable, Sendable, Equatable {
        public var path: String
        public var fingerprint: InputFingerprint
        /// Records 0..<nextRecord (in reading order, rejected ones included) are done.
        public var nextRecord: Int
        /// Write outcomes of the done records that were applied: inserted, updated, unchanged,
        /// rolledBack and resolved conflicts (rejections are in `rejections`).
        public var written: Counts
    }

    /// A done record the store rejected (a conflict, a duplicate in insert mode, a constraint).
    public struct WriteRejection: Codable, Sendable, Equatable {
        public var path: String
        public var record: Int
        public var reason: RejectReason
        public var field: String?
        public var message: String

        public var rejection: Rejection { Rejection(stage: .write, reason: reason, field: field, message) }
    }

    /// The pipeline file this checkpoint belongs to.
    public var pipeline: String
    public var runId: String
    public var inputs: [InputState]
    /// Filled by `Store.loadCheckpoint`; a store keeps them apart from the rest, adding to them
    /// with each batch.
    public var rejections: [WriteRejection] = []

    private enum CodingKeys: String, CodingKey { case pipeline, runId, inputs }

    public init(pipeline: String, runId: String, inputs: [InputState] = []) {
        self.pipeline = pipeline
        self.runId = runId
        self.inputs = inputs
    }

    /// The state of the input at `path`, if the checkpoint has one.
    public func state(of path: String) -> InputState? {
        inputs.first { $0.path == path }
    }
}

/// What identifies an input file's content cheaply: its size and the SHA-256 of its head (for
/// an object in S3, `etag:` and its ETag, SPEC §16).
public struct InputFingerprint: Codable, Sendable, Equatable {
    public var size: Int64
    public var headSHA256: String

    /// Bytes hashed from the start of the file.
    public static let headLength = 1 << 20

    public init(size: Int64, headSHA256: String) {
        self.size = size
        self.headSHA256 = headSHA256
    }

    /// The fingerprint of the file at `path` as it is now.
    public init(of path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ConfigurationError(file: path, "cannot read the input")
        }
        defer { try? handle.close() }
        let head = try handle.read(upToCount: Self.headLength) ?? Data()
        size = Int64(try handle.seekToEnd())
        headSHA256 = SHA256.hex(of: Array(head))
    }
}
