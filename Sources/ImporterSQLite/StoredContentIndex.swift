import BlockingBridge
import CSQLite
import Foundation
import ImporterCore

/// What one entity's table holds, as 64-bit fingerprints: key → content (every column but the
/// version, as SQLite stores it). A blind upsert whose content fingerprint matches is unchanged
/// without a statement, which is what makes a re-run of the same input cheap.
///
/// The fingerprints are of the column images (storage class and bytes): a record's image is
/// what binding its values stores. A match therefore means the upsert's `IS NOT` comparison
/// would find every column equal, unless two different contents share a 64-bit fingerprint
/// (probability 2⁻⁶⁴ per changed record). When images differ although SQLite would call the
/// values equal (an INTEGER 4 stored where the record has REAL 4.0), the record just takes the
/// statement path.
///
/// The index is only valid while nothing else writes the table: `SQLiteStore` updates it with
/// each of its own writes, and drops it when another connection commits (`PRAGMA
/// data_version`) or a transaction is rolled back.
final class StoredContentIndex {
    /// Most items an index is built for: its table (16 bytes a slot, at most 3/4 full) then
    /// takes at most 64 MB. Larger tables keep the statement path.
    static let maximumItems = 3 << 20

    /// Key fingerprint → content fingerprint; content 0: unknown (written by a path that does
    /// not keep the fingerprint).
    private let table: FingerprintTable
    /// Threads that read the items: 1, or 2 for a large table read in two parts.
    private(set) var readers = 1
    /// Items read into the index.
    var count: Int { table.count }

    /// Reads every item of `entity` as `database`, inside its write transaction, sees it. Returns
    /// nil when the table holds more than `maximumItems`, or when reading on connections of
    /// their own failed: the write transaction is untouched then, and goes on without an index.
    ///
    /// With `committedIsCurrent` (the transaction has written nothing yet, and its lock keeps
    /// other writers out, so the committed rows are exactly what it sees) the rows are read on
    /// read-only connections to `path`, the upper rowids of a large table at the same time by a
    /// second thread.
    static func read(
        _ entity: Entity, from database: Database, path: String, committedIsCurrent: Bool,
        images: inout ColumnImages
    ) throws -> StoredContentIndex? {
        let table = quoted(entity.table)
        // Separate subqueries: min and max together would scan the whole table.
        var rows = 0, first: Int64 = 0, last: Int64 = 0
        try database.prepare(
            """
            SELECT (SELECT count(*) FROM \(table)), (SELECT min(rowid) FROM \(table)), (SELECT max(rowid) FROM \(table))
            """
        ).query { bounds in
            (rows, first, last) = (Int(bounds.int64(0)), bounds.int64(1), bounds.int64(2))
        }
        guard rows <= maximumItems else { return nil }
        let select =
            "SELECT \(entity.attributes.map { quoted($0.name) }.joined(separator: ", ")) FROM \(table) WHERE rowid BETWEEN ? AND ?"
        var split = last
        var helper: ContentReader?
        if committedIsCurrent, rows >= parallelRows {
            split = first + (last / 5 - first / 5) * 2  // two fifths: the writer also inserts the helper's share
            helper = ContentReader(
                path: path, entity: entity, select: select, rowids: split + 1...last,
                expectedRows: rows - rows / 5 * 2)
        }
        // Made while the helper reads: zeroing a large table's new pages takes the kernel a while.
        let index = StoredContentIndex(rows: rows)
        if helper != nil { index.readers = 2 }
        do {
            // Committed rows are read on connections of their own, so the writer's page cache
            // (kept for its inserts) does not fill up with the whole table.
            let source = committedIsCurrent ? try Database(path: path, readOnly: true) : database
            let scan = try source.prepare(select)
            var complete = true
            try scan.withArguments([.integer(first), .integer(split)]) {
                try scan.bind(1, int64: first)
                try scan.bind(2, int64: split)
                defer { scan.reset() }
                while complete, try scan.step() {
                    let image = images.stored(scan, entity: entity)
                    complete = index.insert(key: image.key, content: image.content)
                }
            }
            if let helper {
                for (key, content) in try helper.wait() where complete {
                    complete = index.insert(key: key, content: content)
                }
            }
            return complete ? index : nil
        } catch {
            _ = try? helper?.wait()  // its connection is closed before the store goes on
            if committedIsCurrent { return nil }
            throw error
        }
    }

    /// Tables smaller than this are read by one thread.
    private static let parallelRows = 1 << 14

    private init(rows: Int) {
        table = FingerprintTable(capacity: rows, maximumLoad: 0.75)
    }

    /// The content fingerprint stored for `key`, nil when the key is not stored (or unknown).
    func content(of key: UInt64) -> UInt64? {
        table.value(of: key).flatMap { $0 == 0 ? nil : $0 }
    }

    /// Records the content a write left for `key` (0: unknown), in every entry of a shared
    /// fingerprint. New keys are not added: each key is written once per run, and the statement
    /// path handles keys the index lacks.
    func update(key: UInt64, content: UInt64) {
        table.update(key, value: content)
    }

    /// False when the table holds more items than it was sized for (counted before the read).
    private func insert(key: UInt64, content: UInt64) -> Bool {
        guard table.count < table.capacity else { return false }
        table.insert(key, value: content)
        return true
    }
}

/// Reads the content fingerprints of a range of rowids on a thread of its own (a Dispatch
/// worker of `BlockingCallExecutor`, never Swift concurrency's pool) and its own read-only
/// connection: a statement reads one consistent snapshot.
private struct ContentReader {
    typealias Pairs = [(UInt64, UInt64)]

    private let reading: BlockingTask<Pairs>

    /// `expectedRows`: about how many rows the range holds (room is made for them up front).
    init(path: String, entity: Entity, select: String, rowids: ClosedRange<Int64>, expectedRows: Int) {
        reading = BlockingTask(on: BlockingCallExecutor.shared) {
            try Self.read(path: path, entity: entity, select: select, rowids: rowids, expectedRows: expectedRows)
        }
    }

    private static func read(
        path: String, entity: Entity, select: String, rowids: ClosedRange<Int64>, expectedRows: Int
    ) throws -> Pairs {
        let database = try Database(path: path, readOnly: true)
        let scan = try database.prepare(select)
        var images = ColumnImages()
        var pairs: Pairs = []
        pairs.reserveCapacity(expectedRows)
        try scan.query([.integer(rowids.lowerBound), .integer(rowids.upperBound)]) {
            pairs.append(images.stored($0, entity: entity))
        }
        return pairs
    }

    /// The (key, content) fingerprints, once the read is done.
    @available(*, noasync)
    func wait() throws -> Pairs { try reading.wait() }
}

/// Fingerprints of items' column images: an item's key, and its content (the key and every
/// other attribute but the version). Neither is ever 0. Holds a buffer: one per thread.
struct ColumnImages {
    private let fingerprint = Fingerprint()

    /// The images of a record's values as `ValueColumns.bind` stores them.
    mutating func of(_ values: [Value], entity: Entity) -> (key: UInt64, content: UInt64) {
        fingerprint.reset()
        for index in values.indices where index != entity.versionIndex { add(values[index]) }
        let content = fingerprint.value
        return (key(entity.key(of: values)), content)
    }

    /// The fingerprint of a key value's image.
    mutating func key(_ value: Value) -> UInt64 {
        fingerprint.reset()
        add(value)
        return fingerprint.value
    }

    /// The images of the current row of a scan (all columns in attribute order).
    mutating func stored(_ statement: Statement, entity: Entity) -> (key: UInt64, content: UInt64) {
        fingerprint.reset()
        for index in entity.keyIndices { addColumn(Int32(index), of: statement) }
        let key = fingerprint.value
        fingerprint.reset()
        for index in entity.attributes.indices where index != entity.versionIndex {
            addColumn(Int32(index), of: statement)
        }
        return (key, fingerprint.value)
    }

    private enum StorageClass: UInt8 { case null, integer, real, text, blob }

    private mutating func add(_ value: Value) {
        switch value {
        case .null: fingerprint.append(StorageClass.null.rawValue)
        case .integer(let number): addInteger(number)
        case .boolean(let flag): addInteger(flag ? 1 : 0)
        case .double(let number): fingerprint.append(StorageClass.real.rawValue, number.bitPattern)
        case .string(let text), .decimal(let text):
            var text = text
            text.withUTF8 { addText(UnsafeRawBufferPointer($0)) }
        case .pair(let hash, let range):
            add(hash)
            add(range)
        case .binary(let bytes):
            bytes.withUnsafeBytes { fingerprint.append(StorageClass.blob.rawValue, counted: $0) }
        case .date(let millis):
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ISO8601.maximumLength) { buffer in
                let count = ISO8601.format(millis: millis, into: buffer)
                addText(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[..<count])))
            }
        }
    }

    private mutating func addColumn(_ column: Int32, of statement: Statement) {
        let handle = statement.handle
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: addInteger(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            fingerprint.append(StorageClass.real.rawValue, sqlite3_column_double(handle, column).bitPattern)
        case SQLITE_TEXT:
            let pointer = sqlite3_column_text(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            addText(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
        case SQLITE_BLOB:
            let pointer = sqlite3_column_blob(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            fingerprint.append(
                StorageClass.blob.rawValue,
                counted: UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
        default: fingerprint.append(StorageClass.null.rawValue)
        }
    }

    private mutating func addInteger(_ number: Int64) {
        fingerprint.append(StorageClass.integer.rawValue, UInt64(bitPattern: number))
    }

    private mutating func addText(_ bytes: UnsafeRawBufferPointer) {
        fingerprint.append(StorageClass.text.rawValue, counted: bytes)
    }
}
