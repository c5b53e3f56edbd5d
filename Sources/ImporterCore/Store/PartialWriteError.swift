/// A write that failed part-way on a store that cannot roll back (DynamoDB): what became of
/// each record of it, so that the report counts what the store holds (docs/reports.md#reportjson).
public struct PartialWriteError: Error, CustomStringConvertible, Sendable {
    /// What became of one record.
    public enum Fate: Sendable {
        /// The store answered for it (written, unchanged, rejected, ...).
        case decided(WriteOutcome)
        /// Sent in a request whose answer was lost: it may or may not be written.
        case unknown
        /// Never sent: the write stopped first.
        case notSent
    }

    /// One fate per record, in order.
    public let fates: [Fate]
    /// The failure that stopped the write.
    public let underlying: any Error

    public init(fates: [Fate], underlying: any Error) {
        self.fates = fates
        self.underlying = underlying
    }

    public var description: String { "\(underlying)" }
}
