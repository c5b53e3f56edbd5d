/// Whether another connection committed while this run wrote: a run records its inputs as
/// unchanged (`_importer_unchanged_inputs`) only if none did. It watches `PRAGMA data_version`,
/// which changes at every commit by another connection, and at the steps this run makes itself
/// that look like one (a switch of the journal mode): those it is told of (`ownStep`).
struct UnchangedInputWatch {
    /// The data version when this run began writing (after it forgot the unchanged inputs),
    /// with this run's own steps added; nil while no run is watched.
    private var expectedDataVersion: Int64?

    /// Whether a run is watched.
    var isWatching: Bool { expectedDataVersion != nil }

    /// A run begins writing at `dataVersion`.
    mutating func start(at dataVersion: Int64) {
        expectedDataVersion = dataVersion
    }

    /// The run itself changed the data version by one (the bulk build's journal switch): not
    /// another connection's commit.
    mutating func ownStep() {
        if let expected = expectedDataVersion { expectedDataVersion = expected + 1 }
    }

    /// Ends the watch: the data version the store has if no other connection committed since
    /// `start`; nil when no run was watched.
    mutating func end() -> Int64? {
        defer { expectedDataVersion = nil }
        return expectedDataVersion
    }
}
