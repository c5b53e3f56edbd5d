import ImporterCore

/// Writing whole record groups (documents) all or nothing inside a batch's transaction
/// (docs/documents.md#rejections): a savepoint the write stage keeps or returns to.
extension StoreConnection {
    /// Opens the savepoint that `endGroups` keeps or returns to, in the batch's transaction.
    func beginGroups() throws {
        do {
            try beginWriting()
            try database.cached("SAVEPOINT importer_groups").execute()
            groupsStagedBulkRows = false
        } catch {
            rollBack()
            throw StoreError.sqlite(error, at: path, operation: "write")
        }
    }

    /// Keeps (RELEASE) or undoes (ROLLBACK TO) the writes since `beginGroups`. Rows staged for a
    /// bulk load since then cannot be taken back one by one: undoing them fails the batch
    /// (the run stops; the whole batch is rolled back, so no group is left half written).
    func endGroups(keeping: Bool) throws {
        do {
            guard !keeping else { return try database.cached("RELEASE importer_groups").execute() }
            guard !groupsStagedBulkRows else {
                throw StoreError(
                    .storage(resultCode: nil),
                    "\(path): a document's writes must be undone, but rows of it were staged for a bulk load, which is undone only whole",
                    operation: "write")
            }
            // The content indexes may hold the undone writes.
            contentIndexes.forgetAll()
            try database.cached("ROLLBACK TO importer_groups").execute()
            try database.cached("RELEASE importer_groups").execute()
        } catch let error as StoreError {
            rollBack()
            throw error
        } catch {
            rollBack()
            throw StoreError.sqlite(error, at: path, operation: "write")
        }
    }
}
