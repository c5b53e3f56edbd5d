import ImporterCore

/// The content indexes (`StoredContentIndex`): when they are read, and when they are dropped.
extension StoreConnection {
    /// Fingerprints the stored content of `entity`: called once most of a write's blind upserts
    /// found their key stored (a re-run or a refresh), so the rest are decided without statements.
    func indexContent(of entity: Entity) throws {
        guard !unindexed.contains(entity.name) else { return }
        let version = try dataVersion()
        guard let index = try StoredContentIndex.read(entity, from: database, path: path,
                                                      committedIsCurrent: database.totalChanges == changesAtBegin,
                                                      images: &images) else {
            unindexed.insert(entity.name)
            return
        }
        indexedDataVersion = version  // the other indexes have it too: `beginWriting` checked them
        contentIndexes[entity.name] = index
    }

    /// For writes that bypass `write` and `delete` (migrations).
    func forgetContentIndexes() {
        contentIndexes = [:]
    }

    /// The content index that currently decides re-written items of `entity`, if any: how many
    /// items it read, with how many threads.
    func contentIndexSize(_ entity: Entity) -> (items: Int, readers: Int)? {
        contentIndexes[entity.name].map { ($0.count, $0.readers) }
    }

    /// Changes when another connection commits (SQLite's `PRAGMA data_version`).
    func dataVersion() throws -> Int64 {
        try database.integer("PRAGMA data_version")
    }
}
