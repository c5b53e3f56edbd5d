/// Where a record was read: an input of the run and a line in it.
public struct RecordLocation: Sendable, Equatable {
    public var inputIndex: Int
    public var line: Int

    public init(inputIndex: Int, line: Int) {
        self.inputIndex = inputIndex
        self.line = line
    }
}

/// The hash keys accepted so far in a run, per entity: finds duplicates within the run and
/// answers reference checks against this run's parent input.
///
/// Its memory must not grow with the input (a run may hold millions of keys), so
/// implementations keep it on disk.
public protocol KeyLedger: AnyObject {
    /// Records `key` for `entity`. If the key was already recorded, records nothing and returns
    /// where it was first seen.
    func record(_ key: Value, entity: String, at location: RecordLocation) throws -> RecordLocation?

    /// Whether `key` was recorded for `entity`.
    func contains(_ key: Value, entity: String) throws -> Bool
}
