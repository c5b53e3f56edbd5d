import CSQLite
import ImporterCore

/// The current row of a scan, read in place (`Store.scanRows`): text straight from SQLite's
/// buffer, dates as the canonical text they are stored as (docs/values.md).
struct StatementRow: StoredRow {
    let statement: Statement

    func isNull(_ index: Int) -> Bool { statement.isNull(Int32(index)) }
    func integer(_ index: Int) -> Int64 { statement.int64(Int32(index)) }
    func double(_ index: Int) -> Double { statement.double(Int32(index)) }

    func withText<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let pointer = sqlite3_column_text(statement.handle, Int32(index))
        let count = Int(sqlite3_column_bytes(statement.handle, Int32(index)))
        return try body(UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    func withBytes<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let pointer = sqlite3_column_blob(statement.handle, Int32(index))
        let count = Int(sqlite3_column_bytes(statement.handle, Int32(index)))
        return try body(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }
}
