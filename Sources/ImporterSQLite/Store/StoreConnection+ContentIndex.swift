import ImporterCore

/// The content indexes (`StoredContentIndex`): when they are read, and when they are dropped.
extension StoreConnection {
    /// Fingerprints the stored content of `entity`: called once most of a write's blind upserts
    /// found their key stored (a re-run or a refresh), so the rest are decided without statements.
    /// A table of more than `contentWindowThreshold` rowids gets a window first, starting at the
    /// item `lastFound`, the last of those records (in input order).
    func indexContent(of entity: Entity, lastFound: Value) throws {
        guard !unindexed.contains(entity.name) else { return }
        let version = try dataVersion()
        if let span = try? rowidSpan(of: entity), span > contentWindowThreshold {
            try startWindow(over: entity, at: lastFound)
        } else {
            try indexWholeContent(of: entity)
        }
        indexedDataVersion = version  // the other indexes have it too: `beginWriting` checked them
    }

    private func indexWholeContent(of entity: Entity) throws {
        contentIndexes[entity.name] = try StoredContentIndex.read(
            entity, from: database, path: path, committedIsCurrent: database.totalChanges == changesAtBegin, images: &images)
        if contentIndexes[entity.name] == nil { unindexed.insert(entity.name) }
    }

    /// Called after a write whose records the content window mostly did not hold although
    /// they were stored: the input left the window (a jump, or an order unlike the table's).
    /// The window moves to `lastFound`. After `maximumWindowMisses` such writes in a row, the
    /// whole table is indexed if it is small enough (`StoredContentIndex.maximumItems`);
    /// otherwise every record takes a statement for the store's lifetime.
    func windowMissed(_ entity: Entity, lastFound: Value) throws {
        let misses = windowMisses[entity.name, default: 0] + 1
        windowMisses[entity.name] = misses
        if misses < Self.maximumWindowMisses {
            try startWindow(over: entity, at: lastFound)
        } else {
            try indexWholeContent(of: entity)
        }
    }

    private static let maximumWindowMisses = 4

    /// Starts a window over `entity` at `lastFound`. A window reads the table once, in order:
    /// its pages are not read again, so the page cache shrinks to `windowCacheSize` while windows
    /// last, instead of filling with them. A table the window cannot read (one without rowids,
    /// made by another tool) keeps the statement path.
    private func startWindow(over entity: Entity, at lastFound: Value) throws {
        try database.execute("PRAGMA cache_size = \(Self.windowCacheSize)")
        do {
            contentIndexes[entity.name] = try StoredContentWindow(entity, on: database, startingAt: lastFound)
        } catch {
            contentIndexes[entity.name] = nil
            unindexed.insert(entity.name)
        }
    }

    /// 16 MiB.
    private static let windowCacheSize = -16384

    /// Drops the content windows: they follow one run's records through the table.
    func forgetContentWindows() throws {
        contentIndexes = contentIndexes.filter { !($0.value is StoredContentWindow) }
        windowMisses = [:]
        try database.execute("PRAGMA cache_size = \(Self.cacheSize)")
    }

    /// The largest rowid less the smallest, plus one: at least the row count, found without
    /// counting the rows.
    private func rowidSpan(of entity: Entity) throws -> Int64 {
        let table = quoted(entity.table)
        return try database.integer("SELECT coalesce((SELECT max(rowid) FROM \(table)) - (SELECT min(rowid) FROM \(table)) + 1, 0)")
    }

    /// For writes that bypass `write` and `delete` (migrations).
    func forgetContentIndexes() {
        contentIndexes = [:]
    }

    /// The content index that currently decides re-written items of `entity`, if any: how many
    /// items it read, with how many threads.
    func contentIndexSize(_ entity: Entity) -> (items: Int, readers: Int)? {
        (contentIndexes[entity.name] as? StoredContentIndex).map { ($0.count, $0.readers) }
    }

    /// How many rows the content window of `entity` has read, if it has one.
    func contentWindowRows(_ entity: Entity) -> Int? {
        (contentIndexes[entity.name] as? StoredContentWindow)?.rowsRead
    }

    /// Changes when another connection commits (SQLite's `PRAGMA data_version`).
    func dataVersion() throws -> Int64 {
        try database.integer("PRAGMA data_version")
    }
}
