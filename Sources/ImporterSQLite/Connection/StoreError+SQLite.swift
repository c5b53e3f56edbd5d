import CSQLite
import ImporterCore

extension StoreError {
    /// `error` as a failure of the store at `location` (a file; nil when the message names it): a `StoreError` as it is, a `SQLiteError`
    /// by its result code (busy or locked: another writer), anything else a failure of the
    /// storage. `message` says what was being done (`cannot commit`), nil for nothing more.
    static func sqlite(
        _ error: any Error, at location: String?, _ message: String? = nil, entity: String? = nil,
        key: Value? = nil, operation: String
    ) -> StoreError {
        if let error = error as? StoreError { return error }
        let kind: Kind
        if let error = error as? SQLiteError {
            kind =
                error.primaryCode == SQLITE_BUSY || error.primaryCode == SQLITE_LOCKED
                ? .conflictingWriter : .storage(resultCode: error.code)
        } else {
            kind = .storage(resultCode: nil)
        }
        let text = [location, message, "\(error)"].compactMap { $0 }.joined(separator: ": ")
        return StoreError(
            kind, text, entity: entity, key: key,
            operation: operation, underlying: error)
    }
}
