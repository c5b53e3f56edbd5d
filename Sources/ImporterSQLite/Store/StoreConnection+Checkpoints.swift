import ImporterCore

/// The WAL's checkpoints while a run writes (`WALCheckpointer`, docs/writes.md#wal-checkpoints).
extension StoreConnection {
    /// SQLite's default limit of the WAL before an automatic checkpoint, in pages.
    private static let automaticCheckpointPages = 1000

    /// Hands the WAL's checkpoints to a thread of their own, when the store is in WAL mode and
    /// a second connection opens (else the writer checkpoints, as SQLite does).
    func startCheckpointer() throws {
        guard checkpointer == nil, let started = try? WALCheckpointer(path: path) else { return }
        try database.execute("PRAGMA wal_autocheckpoint = 0")
        checkpointer = started
    }

    /// Tells the checkpointer of a commit; after a failed checkpoint, the writer checkpoints
    /// itself again, as SQLite does by default.
    func checkpointerCommitted() {
        guard let checkpointer else { return }
        if !checkpointer.failed { return checkpointer.committed() }
        stopCheckpointer()
    }

    /// Ends the checkpointer's thread, and turns the writer's automatic checkpoint on again.
    func stopCheckpointer() {
        guard let checkpointer else { return }
        checkpointer.stop()
        self.checkpointer = nil
        try? database.execute("PRAGMA wal_autocheckpoint = \(Self.automaticCheckpointPages)")
    }
}
