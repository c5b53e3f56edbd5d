/// A store that remembers the inputs whose every record its last run stored, and forgets them
/// at any later write to the model's tables, by importer or by anyone else: a run of the same
/// bytes through the same pipeline and model then has nothing to read (docs/writes.md, "Re-runs and refreshes").
package protocol UnchangedInputRecords: AnyObject, Sendable {
    /// The inputs recorded by the last run that stored them in full, if nothing has written to
    /// `model`'s tables or changed the store's schema since; else none.
    func unchangedInputs(of model: Model) throws -> [UnchangedInput]
    /// Records `inputs`, every record of which the run now finishing stored, and watches
    /// `model`'s tables for writes from then on. Records nothing and returns false when another
    /// connection wrote to the store while the run went (then the store may hold its writes).
    func recordUnchangedInputs(_ inputs: [UnchangedInput], of model: Model) throws -> Bool
}

/// An input file a run stored in full, as the store keeps it for the next run.
package struct UnchangedInput: Sendable, Equatable {
    /// The file's absolute path.
    package var path: String
    package var entity: String
    /// `InputDigest` of the file's bytes.
    package var digest: String
    /// Digest of what turns the bytes into items: the pipeline as read (variables substituted),
    /// the model's versions, the program (importer's version, its executable's size and time)
    /// and the run's inputs.
    package var setup: String
    /// Records the run read from the file (each one stored).
    package var records: Int
    /// The run that stored them.
    package var runId: String

    package init(path: String, entity: String, digest: String, setup: String, records: Int, runId: String) {
        self.path = path
        self.entity = entity
        self.digest = digest
        self.setup = setup
        self.records = records
        self.runId = runId
    }
}
