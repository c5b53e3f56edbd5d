/// What happened to the records of one input or entity. Every record read is in exactly one of
/// inserted, updated, unchanged, rejected, rolledBack, notWritten, unknown
/// (docs/reports.md#reportjson).
package struct Counts: Codable, Sendable, Equatable {
    package var read = 0
    package var inserted = 0
    package var updated = 0
    package var unchanged = 0
    package var rejected = 0
    /// Read but not applied: discarded by `mergePolicy: rollback`, or left uncommitted by an
    /// aborted run (all writes of an aborted `atomic: true` run).
    package var rolledBack = 0
    /// Read and valid, but not in the store because the run stopped first: never sent to it,
    /// or staged by a bulk load whose tables were not built (kept for `--resume`).
    package var notWritten = 0
    /// Sent to a store that cannot roll back (DynamoDB) in a request whose answer was lost: it
    /// may or may not have been written.
    package var unknown = 0
    /// Version conflicts met (resolved or rejected).
    package var conflicts = 0
    package var deleted = 0
    package var retries = 0
    /// Write and read capacity units the store said it consumed (DynamoDB; absent for SQLite).
    package var consumedWCU: Double?
    package var consumedRCU: Double?

    package init() {}

    /// Adds capacity the store consumed.
    package mutating func add(_ units: ConsumedUnits) {
        consumedWCU = (consumedWCU ?? 0) + units.write
        consumedRCU = (consumedRCU ?? 0) + units.read
    }

    /// `read == inserted + updated + unchanged + rejected + rolledBack + notWritten + unknown`
    package var isBalanced: Bool {
        read == inserted + updated + unchanged + rejected + rolledBack + notWritten + unknown
    }

    /// Records that were read but are not in the store as the run meant: rolled back, not
    /// written, or of unknown fate.
    package var notStored: Int { rolledBack + notWritten + unknown }

    /// These counts after their transaction was rolled back: what was written was not committed.
    package func lost() -> Counts { movingWritten(to: \.rolledBack) }

    /// These counts when what they count as written never reached the store's tables (a bulk
    /// load's staged rows, kept for `--resume`).
    package func unapplied() -> Counts { movingWritten(to: \.notWritten) }

    /// These counts with `inserted` and `updated` counted as `outcome` instead.
    private func movingWritten(to outcome: WritableKeyPath<Counts, Int>) -> Counts {
        var counts = self
        counts[keyPath: outcome] += inserted + updated
        counts.inserted = 0
        counts.updated = 0
        return counts
    }

    private enum CodingKeys: String, CodingKey {
        case read, inserted, updated, unchanged, rejected, rolledBack, notWritten, unknown, conflicts, deleted, retries
        case consumedWCU, consumedRCU
    }

    /// Reads counts written before `notWritten` and `unknown` existed as 0 of those.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        read = try container.decode(Int.self, forKey: .read)
        inserted = try container.decode(Int.self, forKey: .inserted)
        updated = try container.decode(Int.self, forKey: .updated)
        unchanged = try container.decode(Int.self, forKey: .unchanged)
        rejected = try container.decode(Int.self, forKey: .rejected)
        rolledBack = try container.decode(Int.self, forKey: .rolledBack)
        notWritten = try container.decodeIfPresent(Int.self, forKey: .notWritten) ?? 0
        unknown = try container.decodeIfPresent(Int.self, forKey: .unknown) ?? 0
        conflicts = try container.decode(Int.self, forKey: .conflicts)
        deleted = try container.decode(Int.self, forKey: .deleted)
        retries = try container.decode(Int.self, forKey: .retries)
        consumedWCU = try container.decodeIfPresent(Double.self, forKey: .consumedWCU)
        consumedRCU = try container.decodeIfPresent(Double.self, forKey: .consumedRCU)
    }

    package static func + (a: Counts, b: Counts) -> Counts {
        var sum = a
        sum.read += b.read
        sum.inserted += b.inserted
        sum.updated += b.updated
        sum.unchanged += b.unchanged
        sum.rejected += b.rejected
        sum.rolledBack += b.rolledBack
        sum.notWritten += b.notWritten
        sum.unknown += b.unknown
        sum.conflicts += b.conflicts
        sum.deleted += b.deleted
        sum.retries += b.retries
        if a.consumedWCU != nil || b.consumedWCU != nil {
            sum.consumedWCU = (a.consumedWCU ?? 0) + (b.consumedWCU ?? 0)
        }
        if a.consumedRCU != nil || b.consumedRCU != nil {
            sum.consumedRCU = (a.consumedRCU ?? 0) + (b.consumedRCU ?? 0)
        }
        return sum
    }
}
