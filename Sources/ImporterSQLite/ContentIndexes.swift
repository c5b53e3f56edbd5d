import ImporterCore

/// The content indexes of the store's writing connection: per entity, the fingerprints of its
/// stored content (`StoredContentIndex`, whole, or a `StoredContentWindow` of it), so re-written
/// items are found unchanged without a statement. When they are read, and when they are dropped.
///
/// They are valid while `PRAGMA data_version` stays `indexedDataVersion`: the writer drops them
/// when another connection has committed (`dropIfStale`), and whenever what they hold may not
/// be stored (`forgetAll`: a rollback, a migration).
final class ContentIndexes {
    private let database: Database
    private let path: String
    private var indexes: [String: any StoredContent] = [:]
    /// Tables with more rowids than this are decided through a `StoredContentWindow` first,
    /// which is cheaper than indexing them whole, and the only way for the largest.
    var windowThreshold = 1 << 16
    /// Writes in a row whose records the content window did not hold, per entity.
    private var windowMisses: [String: Int] = [:]
    private var indexedDataVersion: Int64 = 0
    /// Entities left without a content index for this store's lifetime (too large, or their
    /// read failed).
    private var unindexed: Set<String> = []
    /// `database.totalChanges` when the connection last began a transaction.
    private var changesAtBegin: Int64 = -1
    /// Unchecked exclusivity: the writing connection's thread alone uses it, once per record,
    /// and no call reenters.
    @exclusivity(unchecked) private var images = ColumnImages()

    init(database: Database, path: String) {
        self.database = database
        self.path = path
    }

    /// The index that decides re-written items of `entity`, if any.
    func index(of entity: Entity) -> (any StoredContent)? {
        indexes[entity.name]
    }

    /// The images of a record's key and content (`ColumnImages.of`).
    func image(of values: [Value], entity: Entity) -> (key: UInt64, content: UInt64) {
        images.of(values, entity: entity)
    }

    /// Keeps `index` right after a write of `values` changed the stored item: a blind upsert
    /// (`image`, its record's) leaves exactly its own content; other writes, what the rules
    /// made of it, not known here.
    func noteWrite(
        of values: [Value], image: (key: UInt64, content: UInt64)?, entity: Entity, in index: any StoredContent
    ) {
        index.update(key: image?.key ?? images.key(entity.key(of: values)), content: image?.content ?? 0)
    }

    /// Before a delete of `key`: its stored content is no longer known.
    func noteDelete(of key: Value, entity: Entity) {
        if let index = indexes[entity.name] { index.update(key: images.key(key), content: 0) }
    }

    /// Notes that the connection began a transaction: while its change count stays the same,
    /// the transaction has written nothing.
    func transactionBegan() {
        changesAtBegin = database.totalChanges
    }

    /// Drops the indexes if another connection has committed since they were read (the store
    /// holds no lock between its transactions).
    func dropIfStale() throws {
        if !indexes.isEmpty, try database.dataVersion() != indexedDataVersion { indexes = [:] }
    }

    /// Drops every index: what they hold may not be stored (a rollback), or writes bypass
    /// `noteWrite` and `noteDelete` (migrations).
    func forgetAll() {
        indexes = [:]
    }

    /// After a write of `entity` most of whose blind upserts found their key stored (a re-run or
    /// a refresh): without an index, one is read, so the rest are decided without statements; a
    /// window whose records were `mostlyMissed` moves (`windowMissed`); otherwise the window's
    /// misses start again. `lastFound`: the last of those records (in input order).
    func foundStored(_ entity: Entity, lastFound: Value, mostlyMissed: Bool) throws {
        let index = indexes[entity.name]
        if index == nil {
            try indexContent(of: entity, lastFound: lastFound)
        } else if index is StoredContentWindow, mostlyMissed {
            try windowMissed(entity, lastFound: lastFound)
        } else {
            windowMisses[entity.name] = nil
        }
    }

    /// Fingerprints the stored content of `entity`. A table of more than `windowThreshold`
    /// rowids gets a window first, starting at the item `lastFound`.
    private func indexContent(of entity: Entity, lastFound: Value) throws {
        guard !unindexed.contains(entity.name) else { return }
        let version = try database.dataVersion()
        if let span = try? rowidSpan(of: entity), span > windowThreshold {
            try startWindow(over: entity, at: lastFound)
        } else {
            try indexWholeContent(of: entity)
        }
        indexedDataVersion = version  // the other indexes have it too: `dropIfStale` checked them
    }

    private func indexWholeContent(of entity: Entity) throws {
        indexes[entity.name] = try StoredContentIndex.read(
            entity, from: database, path: path, committedIsCurrent: database.totalChanges == changesAtBegin,
            images: &images)
        if indexes[entity.name] == nil { unindexed.insert(entity.name) }
    }

    /// Called after a write whose records the content window mostly did not hold although
    /// they were stored: the input left the window (a jump, or an order unlike the table's).
    /// The window moves to `lastFound`. After `maximumWindowMisses` such writes in a row, the
    /// whole table is indexed if it is small enough (`StoredContentIndex.maximumItems`);
    /// otherwise every record takes a statement for the store's lifetime.
    private func windowMissed(_ entity: Entity, lastFound: Value) throws {
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
            indexes[entity.name] = try StoredContentWindow(entity, on: database, startingAt: lastFound)
        } catch {
            indexes[entity.name] = nil
            unindexed.insert(entity.name)
        }
    }

    /// 16 MiB.
    private static let windowCacheSize = -16384

    /// Drops the content windows: they follow one run's records through the table. The page
    /// cache gets the connection's size back.
    func forgetWindows() throws {
        indexes = indexes.filter { !($0.value is StoredContentWindow) }
        windowMisses = [:]
        try database.execute("PRAGMA cache_size = \(StoreConnection.cacheSize)")
    }

    /// The largest rowid less the smallest, plus one: at least the row count, found without
    /// counting the rows.
    private func rowidSpan(of entity: Entity) throws -> Int64 {
        let table = quoted(entity.table)
        return try database.integer(
            "SELECT coalesce((SELECT max(rowid) FROM \(table)) - (SELECT min(rowid) FROM \(table)) + 1, 0)")
    }

    /// The content index that currently decides re-written items of `entity`, if any: how many
    /// items it read, with how many threads.
    func indexSize(_ entity: Entity) -> (items: Int, readers: Int)? {
        (indexes[entity.name] as? StoredContentIndex).map { ($0.count, $0.readers) }
    }

    /// How many rows the content window of `entity` has read, if it has one.
    func windowRows(_ entity: Entity) -> Int? {
        (indexes[entity.name] as? StoredContentWindow)?.rowsRead
    }
}
