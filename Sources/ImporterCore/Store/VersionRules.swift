/// The version rules (docs/writes.md) in one place: given an incoming record and the stored item (if any), what to write.
///
/// Stores call `decide` inside their batch transaction with the item they hold, then perform
/// the write it returns; a remote store turns `expectedVersion` into a server-side condition.
package struct VersionRules: Sendable {
    package let entity: Entity
    package let mode: WriteConfig.Mode
    package let versions: WriteConfig.Versions
    package let mergePolicy: WriteConfig.MergePolicy
    /// An incoming version must be the stored one even when the content equals the stored
    /// content: the library's compare-and-set, where two writers that read the same version and
    /// write the same values must not both succeed (docs/library.md). Off for `importer run`,
    /// where a dump replayed after its items moved on is `unchanged` (docs/writes.md).
    package var strictVersions = false

    package init(entity: Entity, write: WriteConfig) {
        self.entity = entity
        self.mode = write.mode
        self.versions = write.versions
        self.mergePolicy = write.mode == .replace ? .overwrite : write.mergePolicy
    }

    /// What to do with a record.
    package enum Decision: Equatable, Sendable {
        /// Insert these values (version attribute set).
        case insert([Value])
        /// Replace the item whose version is `expectedVersion` with these values.
        case update([Value], expectedVersion: Int64)
        case unchanged
        case rolledBack
        case reject(reason: RejectReason, message: String)
    }

    /// The decision, and whether it came from resolving a conflict.
    package func decide(_ incoming: [Value], stored: [Value]?) -> (decision: Decision, conflict: Bool) {
        let versionIndex = entity.versionIndex
        let incomingVersion: Int64? = versions == .ignore ? nil : incoming[versionIndex].integerValue
        guard let stored else {
            if let version = newItemVersion(incoming) { return (.insert(withVersion(incoming, version)), false) }
            return (
                resolveConflict(
                    incoming, stored: nil,
                    "\(keyText(incoming)) is not stored, but the record is based on version \(incomingVersion ?? 0)"),
                true
            )
        }
        let storedVersion = stored[versionIndex].integerValue ?? 0
        if mode == .insert {
            return (
                .reject(
                    reason: .duplicate,
                    message:
                        "\(keyText(incoming)) is already stored (version \(storedVersion)); mode insert never overwrites"
                ), false
            )
        }
        let versionMatters = versions == .preserve || (strictVersions && versions == .check)
        if sameContent(incoming, stored)
            && (!versionMatters || incomingVersion == nil || incomingVersion == storedVersion)
        {
            return (.unchanged, false)
        }
        switch versions {
        case .preserve:
            return (
                .update(withVersion(incoming, incomingVersion ?? storedVersion + 1), expectedVersion: storedVersion),
                false
            )
        case .ignore:
            return (.update(withVersion(incoming, storedVersion + 1), expectedVersion: storedVersion), false)
        case .check:
            guard let version = incomingVersion, version != storedVersion else {
                return (.update(withVersion(incoming, storedVersion + 1), expectedVersion: storedVersion), false)
            }
            return (
                resolveConflict(
                    incoming, stored: stored,
                    "\(keyText(incoming)) is stored at version \(storedVersion), but the record is based on version \(version)"
                ), true
            )
        }
    }

    /// The version a record gets when its key is not stored yet, or nil when that is a
    /// conflict (a record based on a version of an item that does not exist). Stores use it to
    /// insert without building a new row.
    package func newItemVersion(_ incoming: [Value]) -> Int64? {
        let incomingVersion: Int64? = versions == .ignore ? nil : incoming[entity.versionIndex].integerValue
        switch versions {
        case .preserve: return incomingVersion ?? 1
        case .ignore: return 1
        case .check: return incomingVersion == nil || incomingVersion == 0 ? 1 : nil
        }
    }

    /// Whether the record is a blind upsert: no version of its own to check, not `mode: insert`.
    /// Its outcome then depends only on the stored content — new key: insert at version 1;
    /// identical: unchanged; different: replace at the stored version + 1 — so a store may apply
    /// it as one conditional statement instead of reading the item first.
    package func isBlindUpsert(_ incoming: [Value]) -> Bool {
        isBlindUpsert(version: incoming[entity.versionIndex])
    }

    /// `isBlindUpsert` of a record whose version attribute holds `version`.
    package func isBlindUpsert(version: Value) -> Bool {
        mode != .insert && (versions == .ignore || version.isNull)
    }

    private func resolveConflict(_ incoming: [Value], stored: [Value]?, _ message: String) -> Decision {
        let versionIndex = entity.versionIndex
        guard let stored else {
            switch mergePolicy {
            case .error: return .reject(reason: .conflict, message: message)
            case .rollback: return .rolledBack
            case .overwrite, .objectTrump, .storeTrump: return .insert(withVersion(incoming, 1))
            }
        }
        let storedVersion = stored[versionIndex].integerValue ?? 0
        var merged: [Value]
        switch mergePolicy {
        case .error: return .reject(reason: .conflict, message: message + "; choose a write.mergePolicy to resolve it")
        case .rollback: return .rolledBack
        case .overwrite: merged = incoming
        case .objectTrump: merged = zip(incoming, stored).map { $0.isNull ? $1 : $0 }
        case .storeTrump: merged = zip(incoming, stored).map { $1.isNull ? $0 : $1 }
        }
        if sameContent(merged, stored) { return .unchanged }
        return .update(withVersion(merged, storedVersion + 1), expectedVersion: storedVersion)
    }

    /// Equal in every attribute but the version.
    package func sameContent(_ a: [Value], _ b: [Value]) -> Bool {
        let versionIndex = entity.versionIndex
        for index in a.indices where index != versionIndex && a[index] != b[index] { return false }
        return true
    }

    private func withVersion(_ values: [Value], _ version: Int64) -> [Value] {
        var values = values
        values[entity.versionIndex] = .integer(version)
        return values
    }

    private func keyText(_ values: [Value]) -> String {
        "\(entity.name) \(entity.describe(key: entity.key(of: values)))"
    }
}

extension Value {
    package var integerValue: Int64? { if case .integer(let number) = self { return number } else { return nil } }
}
