/// Why a run stopped before the end of its input: report.json's `abortReason`, `abortCause` and
/// `storeFailure` (docs/reports.md#the-fields).
package struct AbortReason: Sendable, CustomStringConvertible {
    package enum Cause: String, Codable, Sendable {
        /// An input could not be read, or changed while it was read.
        case input
        /// More rejections than `errors:` allows, before the end of the input.
        case errorLimit
        /// The store failed: `storeFailure` says how.
        case store
        /// A signal asked the run to stop.
        case interrupted
    }

    package let cause: Cause
    /// What happened, for people.
    package let message: String
    /// The store's failure, when the store stopped the run.
    package let storeFailure: StoreError.Kind?

    package init(_ cause: Cause, _ message: String, storeFailure: StoreError.Kind? = nil) {
        self.cause = cause
        self.message = message
        self.storeFailure = storeFailure
    }

    /// The store failed with `error` while doing `what` (`the store failed to commit`).
    package static func store(_ what: String, _ error: any Error) -> AbortReason {
        let failure = (error as? StoreError) ?? ((error as? PartialWriteError)?.underlying as? StoreError)
        return AbortReason(.store, "\(what): \(error)", storeFailure: failure?.kind ?? .storage(resultCode: nil))
    }

    package var description: String { message }
}
