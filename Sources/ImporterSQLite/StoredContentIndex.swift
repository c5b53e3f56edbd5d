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

    private let slots: SlotArray<Slot>
    private let mask: Int

    private struct Slot {
        /// 0: empty.
        var key: UInt64
        /// 0: unknown (written by a path that does not keep the fingerprint).
        var content: UInt64
    }

    /// Reads every item of `entity` from `statement` (`SELECT` of all columns in attribute
    /// order). Returns nil when the table holds more than `maximumItems`.
    init?(entity: Entity, rows: Int, scan statement: Statement, images: inout ColumnImages) throws {
        guard rows <= Self.maximumItems else { return nil }
        var capacity = 1024
        while capacity * 3 < rows * 4 { capacity <<= 1 }
        slots = SlotArray(count: capacity)
        mask = capacity - 1
        defer { statement.reset() }
        var count = 0
        while try statement.step() {
            count += 1
            guard count <= Self.maximumItems, count * 4 <= capacity * 3 else { return nil }  // grew meanwhile
            let image = images.stored(statement, entity: entity)
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

/// Fingerprints of items' column images: an item's key, and its content (the key and every
/// other attribute but the version). Neither is ever 0. Holds a buffer: one per thread.
struct ColumnImages {
    private let fingerprint = Fingerprint()

    /// The images of a record's values as `ValueColumns.bind` stores them.
    mutating func of(_ values: [Value], entity: Entity) -> (key: UInt64, content: UInt64) {
        fingerprint.reset()
        for index in values.indices where index != entity.versionIndex { add(values[index]) }
        let content = fingerprint.value
        return (key(values[entity.hashKeyIndex]), content)
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
        addColumn(Int32(entity.hashKeyIndex), of: statement)
        let key = fingerprint.value
        fingerprint.reset()
        for index in entity.attributes.indices where index != entity.versionIndex { addColumn(Int32(index), of: statement) }
        return (key, fingerprint.value)
    }

    private enum StorageClass: UInt8 { case null, integer, real, text, blob }

    private mutating func add(_ value: Value) {
        switch value {
        case .null: fingerprint.append(StorageClass.null.rawValue)
        case .integer(let number): addInteger(number)
        case .boolean(let flag): addInteger(flag ? 1 : 0)
        case .double(let number):
            fingerprint.append(StorageClass.real.rawValue)
            fingerprint.append(number.bitPattern)
        case .string(let text), .decimal(let text):
            var text = text
            text.withUTF8 { addText(UnsafeRawBufferPointer($0)) }
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
            fingerprint.append(StorageClass.real.rawValue)
            fingerprint.append(sqlite3_column_double(handle, column).bitPattern)
        case SQLITE_TEXT:
            let pointer = sqlite3_column_text(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            addText(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
        case SQLITE_BLOB:
            let pointer = sqlite3_column_blob(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            fingerprint.append(StorageClass.blob.rawValue)
            fingerprint.append(counted: UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
        default: fingerprint.append(StorageClass.null.rawValue)
        }
    }

    private mutating func addInteger(_ number: Int64) {
        fingerprint.append(StorageClass.integer.rawValue)
        fingerprint.append(UInt64(bitPattern: number))
    }

    private mutating func addText(_ bytes: UnsafeRawBufferPointer) {
        fingerprint.append(StorageClass.text.rawValue)
        fingerprint.append(counted: bytes)
    }
}
