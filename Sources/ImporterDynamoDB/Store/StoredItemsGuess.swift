import Synchronization

/// Whether an entity's writer reads the stored items before it writes (the version rules, docs/writes.md, need their
/// versions), or guesses they are absent: after `streak` groups in a row found nothing stored
/// (a load of new items), groups go out at once as inserts conditional on the key being absent,
/// one round trip instead of two. A condition that fails (the item exists after all) is read
/// and decided again by the writer, as for a concurrent writer's change, and sends the guess
/// back to reading first.
final class StoredItemsGuess: Sendable {
    static let streak = 8
    /// Groups in a row that found nothing stored.
    private let absentGroups = Mutex(0)

    /// Whether the next group should read its stored items first.
    var readsFirst: Bool { absentGroups.withLock { $0 < Self.streak } }

    /// A group read its stored items (`found`: some were stored), or met an item where it
    /// guessed none.
    func record(found: Bool) {
        absentGroups.withLock { $0 = found ? 0 : $0 + 1 }
    }
}
