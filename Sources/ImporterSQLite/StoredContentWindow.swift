import ImporterCore

/// Decides blind upserts without a statement: the content fingerprint stored for a key
/// fingerprint (`ColumnImages`), nil when not known. A record whose content matches is unchanged.
protocol StoredContent: AnyObject {
    /// The content fingerprint stored for `key`, nil when the key is not stored or not known.
    func content(of key: UInt64) throws -> UInt64?
    /// Records the content a write left for `key` (0: unknown).
    func update(key: UInt64, content: UInt64)
}

extension StoredContentIndex: StoredContent {}

/// The stored content of a window of one entity's table, for tables of more than
/// `ContentIndexes.windowThreshold` rows (cheaper than indexing them whole, and the only
/// way past `StoredContentIndex.maximumItems`): rows are read in rowid order, a chunk at a time,
/// just ahead of the records that re-write them. A re-run or refresh of a dump in the order the
/// table was loaded from finds nearly every key in the window; a key it does not find takes the
/// statement path. Its memory is a few chunks, whatever the table's size.
///
/// Rows are read on the writing connection inside its transaction, so the window sees the
/// store's own uncommitted writes; `update` keeps the rows it holds already right.
final class StoredContentWindow: StoredContent {
    /// Rows a chunk reads; at least one write's records, which a record-by-record load stores
    /// in key order among themselves.
    static let chunkRows = 16_384
    /// Chunks held: the oldest goes when a new one is read.
    static let chunkCount = 4

    // Its state skips the runtime's exclusivity checks, which a lookup per record would pay
    // for each property: the writing connection's thread alone uses a window, and no call
    // reenters it.
    private let entity: Entity
    private let next: Statement
    @exclusivity(unchecked) private var images = ColumnImages()
    /// Oldest first; each maps the key fingerprints of one chunk's rows to their content.
    @exclusivity(unchecked) private var chunks: [FingerprintTable] = []
    @exclusivity(unchecked) private var spare: FingerprintTable?
    /// Every row with a smaller rowid has been read.
    @exclusivity(unchecked) private var nextRowid: Int64
    @exclusivity(unchecked) private var exhausted = false
    /// The chunk that held the last key found: the records go through the chunks in order.
    @exclusivity(unchecked) private var lastHitChunk = 0
    /// Items whose content the window read.
    @exclusivity(unchecked) private(set) var rowsRead = 0
    /// Keys looked up.
    @exclusivity(unchecked) private var lookups = 0

    /// A window starting at the row of the stored item `key` (at the table's first row if the
    /// item is not stored).
    init(_ entity: Entity, on database: Database, startingAt key: Value) throws {
        self.entity = entity
        let table = quoted(entity.table)
        let columns = entity.attributes.map { quoted($0.name) }.joined(separator: ", ")
        next = try database.prepare(
            "SELECT \(columns), rowid FROM \(table) WHERE rowid >= ? ORDER BY rowid LIMIT \(Self.chunkRows)")
        nextRowid = Int64.min
        let row = try database.prepare("SELECT rowid FROM \(table) WHERE \(EntityStatements.keyCondition(entity))")
        try row.query(entity.keyParts(key)) { nextRowid = $0.int64(0) }
        try readChunk()
    }

    func content(of key: UInt64) throws -> UInt64? {
        lookups += 1
        var content = lastHitChunk < chunks.count ? try found(key, in: lastHitChunk) : nil
        for age in chunks.indices.reversed() where content == nil && age != lastHitChunk {
            content = try found(key, in: age)
        }
        return content == 0 ? nil : content
    }

    /// The content of `key` if the chunk `age` holds it (0 when not known).
    private func found(_ key: UInt64, in age: Int) throws -> UInt64? {
        guard let content = chunks[age].value(of: key) else { return nil }
        lastHitChunk = age
        // The records have reached the newest chunk: read the next one ahead of them. Records
        // in another order than the table's hit the newest chunk now and then too: reading at
        // most two rows a lookup past the first chunk (rows the input left out are read and
        // skipped) keeps them from racing the window through the table.
        if age == chunks.count - 1, !exhausted, rowsRead <= 2 * lookups + Self.chunkRows {
            try readChunk()
        }
        return content
    }

    func update(key: UInt64, content: UInt64) {
        for chunk in chunks { chunk.update(key, value: content) }
    }

    private func readChunk() throws {
        let chunk = spare ?? FingerprintTable(capacity: Self.chunkRows)
        spare = nil
        chunk.removeAll()
        let rowidColumn = Int32(entity.attributes.count)
        var rows = 0
        try next.query([.integer(nextRowid)]) { row in
            let image = images.stored(row, entity: entity)
            chunk.insert(image.key, value: image.content)
            nextRowid = row.int64(rowidColumn) + 1
            rows += 1
        }
        rowsRead += rows
        exhausted = rows < Self.chunkRows
        guard rows > 0 else { return spare = chunk }
        if chunks.count == Self.chunkCount {
            spare = chunks.removeFirst()
            lastHitChunk = max(lastHitChunk - 1, 0)
        }
        chunks.append(chunk)
    }
}
