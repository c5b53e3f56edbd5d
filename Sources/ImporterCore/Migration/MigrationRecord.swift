import Foundation

/// One migration step as a store's history keeps it (`importer inspect` lists them).
public struct MigrationRecord: Sendable, Equatable {
    public var from: Int
    public var to: Int
    /// The checksum of the version migrated to.
    public var checksum: String
    public var started: Date
    public var finished: Date?
    /// Items the step rewrote.
    public var items: Int
    /// Whether the step was applied (a refused or dry migration is recorded too).
    public var applied: Bool
    /// What else happened (items left out, an accepted model change); nil when nothing.
    public var note: String?

    public init(
        from: Int, to: Int, checksum: String, started: Date, finished: Date?, items: Int, applied: Bool,
        note: String?
    ) {
        self.from = from
        self.to = to
        self.checksum = checksum
        self.started = started
        self.finished = finished
        self.items = items
        self.applied = applied
        self.note = note
    }
}
