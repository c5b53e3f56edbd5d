import ImporterCore

/// The library's transactions on the writing connection (`ItemAccess`,
/// docs/library.md#transactions): `BEGIN IMMEDIATE` when one begins, so it cannot fail later
/// for want of the write lock; COMMIT or ROLLBACK when it ends. Its writes go through `write`
/// and `delete` as a run's do, but nothing commits in between (`commit()` waits for its end).
extension StoreConnection {
    func beginItemTransaction() throws {
        do {
            try database.begin(.immediate)
        } catch {
            throw StoreError.sqlite(error, at: path, "cannot begin a transaction", operation: "transaction")
        }
        contentIndexes.transactionBegan()
        holdsCommits = true
    }

    /// Commits the open transaction, or with `commit: false` rolls it back. A failed COMMIT
    /// is rolled back too, and thrown.
    func endItemTransaction(commit: Bool) throws {
        holdsCommits = false
        try contentIndexes.forgetWindows()
        guard commit else { return rollBack() }
        guard !database.isAutocommit else { return }  // a failed write rolled it back and threw
        do {
            try database.commit()
        } catch {
            rollBack()
            throw StoreError.sqlite(error, at: path, "cannot commit", operation: "commit")
        }
    }
}
