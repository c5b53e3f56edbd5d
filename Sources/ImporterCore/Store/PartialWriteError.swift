/// A write that failed part-way on a store that cannot roll back (DynamoDB): what became of
/// each record of it, so that the report counts what the store holds (docs/reports.md#reportjson).
package struct PartialWriteError: Error, CustomStringConvertible, Sendable {
    /// What became of one record.
    package enum Fate: Sendable {
        /// The store answered for it (written, unchanged, rejected, ...).
        case decided(WriteOutcome)
        /// Sent in a request whose answer was lost: it may or may not be written.
        case unknown
        /// Never sent: the write stopped first.
        case notSent
    }

    /// One fate per record, in order.
    package let fates: [Fate]
    /// The failure that stopped the write.
    package let underlying: any Error

    package init(fates: [Fate], underlying: any Error) {
        self.fates = fates
        self.underlying = underlying
    }

    package var description: String { "\(underlying)" }
}
