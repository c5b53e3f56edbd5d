import CSQLite
import ImporterCore

/// Copies the pages a run commits from the WAL into the store file on a thread and a
/// connection of its own, while the run goes on writing (docs/writes.md#wal-checkpoints).
///
/// SQLite's automatic checkpoint runs on the writing connection, at the commit that grows the
/// WAL past its limit: the writer then copies the pages and waits for two syncs, the WAL's and
/// the file's, and the stages that feed it wait with it. A `PASSIVE` checkpoint of another
/// connection copies only committed pages, and neither waits for nor blocks the writer or a
/// reader. The writer turns its automatic checkpoint off while this runs, and on again when it
/// stops or a checkpoint fails (`failed`), so the WAL never grows unchecked.
final class WALCheckpointer: Sendable {
    private struct State {
        /// Commits the writer reported; the thread checkpoints when it has not seen the last.
        var commits = 0
        var stopping = false
        /// A checkpoint failed; the thread checkpoints no more after it.
        var failed = false
    }

    private let state = ConditionBox(State())
    private let thread: StageThread<Void>

    /// Opens a connection to the store at `path` and starts the thread; nil when the store is
    /// not in WAL mode (the writer then checkpoints as before). The connection opens the WAL
    /// when it first reads.
    init?(path: String) throws {
        let database = try Database(path: path)
        guard try database.strings("PRAGMA journal_mode").first == "wal" else { return nil }
        let state = self.state
        thread = StageThread("wal checkpoints", owning: database) { database in
            var seen = 0
            while true {
                let (commits, stopping) = state.wait(until: { $0.commits != seen || $0.stopping }) {
                    ($0.commits, $0.stopping)
                }
                if commits != seen {
                    seen = commits
                    let code = sqlite3_wal_checkpoint_v2(database.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                    // Busy: another connection is checkpointing; the next commit tries again.
                    if code != SQLITE_OK, code & 0xFF != SQLITE_BUSY {
                        state.withLock { $0.failed = true }
                        return
                    }
                }
                if stopping { return }
            }
        }
    }

    /// The writer committed: its pages are for the thread to copy.
    func committed() {
        state.withLock { $0.commits += 1 }
    }

    /// Whether a checkpoint failed (the writer then checkpoints itself again).
    var failed: Bool { state.withLock { $0.failed } }

    /// Lets a checkpoint under way finish, and ends the thread and its connection; once.
    func stop() {
        let first = state.withLock { state in
            defer { state.stopping = true }
            return !state.stopping
        }
        if first { thread.join() }
    }

    /// A checkpointer let go without `stop` (a run that failed before it finished, a store
    /// not closed) still ends its thread and closes its connection.
    deinit { stop() }
}
