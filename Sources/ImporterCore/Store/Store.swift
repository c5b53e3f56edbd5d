/// What the pipeline, the commands and `ItemStore` need of a destination (the package's
/// writer surface): every role below. Callers that need less take only the role they use
/// (`StoreReading` for exports and reference checks, `BatchWriting & RunCheckpoints` for the
/// write stage, ...). A program opens `SQLiteStore` or `DynamoDBStore` through `ItemStore`.
///
/// ## Topics
/// - ``StoreLifecycle``
/// - ``StoreReading``
/// - ``BatchWriting``
/// - ``ItemDeleting``
/// - ``RunCheckpoints``
/// - ``RunHistory``
/// - ``StoreMigrating``
/// - ``ItemAccess``
package typealias Store = StoreLifecycle & StoreReading & BatchWriting & ItemDeleting & RunCheckpoints

/// Opening a store for a model, and closing it.
package protocol StoreLifecycle: AnyObject, Sendable {
    /// Creates missing tables and checks the store's recorded model against `model`.
    /// Throws `StoreError` (`.modelMismatch`) when the store holds another model or version.
    func prepare(for model: Model) throws

    func close()
}

/// The outcome of one record's write.
package struct WriteOutcome: Sendable {
    package enum Result: Sendable {
        case inserted, updated, unchanged
        /// Discarded by `mergePolicy: rollback`: the stored item stays.
        case rolledBack
        /// Indirect: a write's outcomes are one a record, and a rejection is rare and large.
        indirect case rejected(Rejection)
    }

    package var result: Result
    /// The record's version conflicted with the store's (resolved or not).
    package var conflict: Bool

    package init(_ result: Result, conflict: Bool = false) {
        self.result = result
        self.conflict = conflict
    }

    /// Whether the record was rejected (by the rules or by the store).
    package var isRejected: Bool { if case .rejected = result { true } else { false } }
}
