import CSQLite
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

    private var slots: [Slot]
    private let mask: Int

    private struct Slot {
        /// 0: empty.
        var key: UInt64
        /// 0: unknown (written by a path that does not keep the fingerprint).
        var content: UInt64
    }

    /// Reads every item of `entity` from `statement` (`SELECT` of all columns in attribute
    /// order). Returns nil when the table holds more than `maximumItems`.
    init?(entity: Entity, rows: Int, scan statement: Statement) throws {
        guard rows <= Self.maximumItems else { return nil }
        var capacity = 1024
        while capacity * 3 < rows * 4 { capacity <<= 1 }
        slots = [Slot](repeating: Slot(key: 0, content: 0), count: capacity)
        mask = capacity - 1
        defer { statement.reset() }
        var count = 0
        while try statement.step() {
            count += 1
            guard count <= Self.maximumItems, count * 4 <= capacity * 3 else { return nil }  // grew meanwhile
            let image = ColumnImage.stored(statement, entity: entity)
            insert(key: image.key, content: image.content)
        }
    }

    /// The content fingerprint stored for `key`, nil when the key is not stored (or unknown).
    func content(of key: UInt64) -> UInt64? {
        var index = Int(truncatingIfNeeded: key) & mask
        while true {
            let slot = slots[index]
            if slot.key == key { return slot.content == 0 ? nil : slot.content }
            if slot.key == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    /// Records the content a write left for `key` (0: unknown). New keys are not added: each
    /// key is written once per run, and the statement path handles keys the index lacks.
    func update(key: UInt64, content: UInt64) {
        var index = Int(truncatingIfNeeded: key) & mask
        while slots[index].key != 0 {
            if slots[index].key == key { slots[index].content = content }  // every slot of a shared fingerprint
            index = (index + 1) & mask
        }
    }

    private func insert(key: UInt64, content: UInt64) {
        var index = Int(truncatingIfNeeded: key) & mask
        while slots[index].key != 0 { index = (index + 1) & mask }
        slots[index] = Slot(key: key, content: content)
    }
}

/// The fingerprints of one item's column images: its key, and its content (the key and every
/// other attribute but the version). Neither is ever 0.
struct ColumnImage {
    let key: UInt64
    let content: UInt64

    /// The image of a record's values as `ValueColumns.bind` stores them.
    init(_ values: [Value], entity: Entity) {
        var contentHasher = Hasher()
        for index in values.indices where index != entity.versionIndex {
            Self.add(values[index], to: &contentHasher)
        }
        key = Self.key(values[entity.hashKeyIndex])
        content = Self.nonZero(contentHasher)
    }

    /// The fingerprint of a key value's image.
    static func key(_ value: Value) -> UInt64 {
        var hasher = Hasher()
        add(value, to: &hasher)
        return nonZero(hasher)
    }

    private init(key: UInt64, content: UInt64) {
        self.key = key
        self.content = content
    }

    /// The image of the current row of a scan (all columns in attribute order).
    static func stored(_ statement: Statement, entity: Entity) -> ColumnImage {
        var keyHasher = Hasher(), contentHasher = Hasher()
        addColumn(Int32(entity.hashKeyIndex), of: statement, to: &keyHasher)
        for index in entity.attributes.indices where index != entity.versionIndex {
            addColumn(Int32(index), of: statement, to: &contentHasher)
        }
        return ColumnImage(key: nonZero(keyHasher), content: nonZero(contentHasher))
    }

    private enum StorageClass: UInt8 { case null, integer, real, text, blob }

    private static func add(_ value: Value, to hasher: inout Hasher) {
        switch value {
        case .null: hasher.combine(StorageClass.null.rawValue)
        case .integer(let number): addInteger(number, to: &hasher)
        case .boolean(let flag): addInteger(flag ? 1 : 0, to: &hasher)
        case .double(let number):
            hasher.combine(StorageClass.real.rawValue)
            hasher.combine(number.bitPattern)
        case .string(let text), .decimal(let text):
            var text = text
            text.withUTF8 { addText(UnsafeRawBufferPointer($0), to: &hasher) }
        case .date(let millis):
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ISO8601.maximumLength) { buffer in
                let count = ISO8601.format(millis: millis, into: buffer)
                addText(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[..<count])), to: &hasher)
            }
        }
    }

    private static func addColumn(_ column: Int32, of statement: Statement, to hasher: inout Hasher) {
        let handle = statement.handle
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: addInteger(sqlite3_column_int64(handle, column), to: &hasher)
        case SQLITE_FLOAT:
            hasher.combine(StorageClass.real.rawValue)
            hasher.combine(sqlite3_column_double(handle, column).bitPattern)
        case SQLITE_TEXT:
            let pointer = sqlite3_column_text(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            addText(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count), to: &hasher)
        case SQLITE_BLOB:
            let pointer = sqlite3_column_blob(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            hasher.combine(StorageClass.blob.rawValue)
            hasher.combine(count)
            hasher.combine(bytes: UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
        default: hasher.combine(StorageClass.null.rawValue)
        }
    }

    private static func addInteger(_ number: Int64, to hasher: inout Hasher) {
        hasher.combine(StorageClass.integer.rawValue)
        hasher.combine(number)
    }

    private static func addText(_ bytes: UnsafeRawBufferPointer, to hasher: inout Hasher) {
        hasher.combine(StorageClass.text.rawValue)
        hasher.combine(bytes.count)
        hasher.combine(bytes: bytes)
    }

    private static func nonZero(_ hasher: Hasher) -> UInt64 {
        let hash = UInt64(bitPattern: Int64(hasher.finalize()))
        return hash == 0 ? 1 : hash
    }
}
