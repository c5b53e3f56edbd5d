/// What happened to the records of one input or entity. Every record read is in exactly one of
/// inserted, updated, unchanged, rejected, rolledBack.
public struct Counts: Codable, Sendable, Equatable {
    public var read = 0
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    public var rejected = 0
    /// Read but not applied: discarded by `mergePolicy: rollback`, or left uncommitted by an
    /// aborted run (all writes of an aborted `atomic: true` run).
    public var rolledBack = 0
    /// Version conflicts met (resolved or rejected).
    public var conflicts = 0
    public var deleted = 0
    public var retries = 0
    /// Write and read capacity units the store said it consumed (DynamoDB; absent for SQLite).
    public var consumedWCU: Double?
    public var consumedRCU: Double?

    public init() {}

    /// Adds capacity the store consumed.
    public mutating func add(_ units: ConsumedUnits) {
        consumedWCU = (consumedWCU ?? 0) + units.write
        consumedRCU = (consumedRCU ?? 0) + units.read
    }

    /// `read == inserted + updated + unchanged + rejected + rolledBack`
    public var isBalanced: Bool { read == inserted + updated + unchanged + rejected + rolledBack }

    /// These counts after their transaction was lost: what was written was not committed.
    public func lost() -> Counts {
        var counts = self
        counts.rolledBack += inserted + updated
        counts.inserted = 0
        counts.updated = 0
        return counts
    }

    public static func + (a: Counts, b: Counts) -> Counts {
        var sum = a
        sum.read += b.read
        sum.inserted += b.inserted
        sum.updated += b.updated
        sum.unchanged += b.unchanged
        sum.rejected += b.rejected
        sum.rolledBack += b.rolledBack
        sum.conflicts += b.conflicts
        sum.deleted += b.deleted
        sum.retries += b.retries
        if a.consumedWCU != nil || b.consumedWCU != nil { sum.consumedWCU = (a.consumedWCU ?? 0) + (b.consumedWCU ?? 0) }
        if a.consumedRCU != nil || b.consumedRCU != nil { sum.consumedRCU = (a.consumedRCU ?? 0) + (b.consumedRCU ?? 0) }
        return sum
    }
}
