/// A destination a pipeline writes to, as the pipeline and the library use it: every role
/// below. Callers that need less take only the role they use (`ItemReading` for exports and
/// reference checks, `BatchWriting & RunCheckpoints` for the write stage, ...).
///
/// ## Topics
/// - ``StoreLifecycle``
/// - ``ItemReading``
/// - ``BatchWriting``
/// - ``ItemDeleting``
/// - ``RunCheckpoints``
/// - ``RunHistory``
/// - ``StoreMigrating``
public typealias Store = StoreLifecycle & ItemReading & BatchWriting & ItemDeleting & RunCheckpoints

/// Opening a store for a model, and closing it.
public protocol StoreLifecycle: AnyObject, Sendable {
    /// Creates missing tables and checks the store's recorded model against `model`.
    /// Throws `StoreError` (`.modelMismatch`) when the store holds another model or version.
    func prepare(for model: Model) throws

    func close()
}

/// The outcome of one record's write.
public struct WriteOutcome: Sendable {
    public enum Result: Sendable {
        case inserted, updated, unchanged
        /// Discarded by `mergePolicy: rollback`: the stored item stays.
        case rolledBack
        case rejected(Rejection)
    }

    public var result: Result
    /// The record's version conflicted with the store's (resolved or not).
    public var conflict: Bool

    public init(_ result: Result, conflict: Bool = false) {
        self.result = result
        self.conflict = conflict
    }
}
