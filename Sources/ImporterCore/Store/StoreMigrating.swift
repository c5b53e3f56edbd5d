/// Moving a store's items from one model version to another (docs/migration.md): the role
/// `importer migrate` needs. SQLite migrates in one transaction; DynamoDB checks every item
/// first, then rewrites them one by one and resumes an unfinished migration.
package protocol StoreMigrating: AnyObject, Sendable {
    /// The model version the store holds, from the versions of its model directory, and the
    /// version an unfinished migration is taking it to; nil when the store holds no model yet.
    /// Throws `ConfigurationError` when the directory lacks that version or its file changed
    /// since the store recorded it (unless `acceptModelChange`, where the store allows it).
    func recordedVersion(in versions: VersionedModel, acceptModelChange: Bool) throws -> RecordedVersion?

    /// Migrates the store through every step of `plan`; the failures carry the items as
    /// stored before the migration.
    func migrate(_ plan: MigrationPlan, settings: MigrationSettings) throws -> MigrationResult
}

/// The model version a store holds.
package struct RecordedVersion: Sendable {
    package let model: Model
    /// The version an unfinished migration is taking the store to.
    package let migratingTo: Int?

    package init(model: Model, migratingTo: Int? = nil) {
        self.model = model
        self.migratingTo = migratingTo
    }
}

/// How a migration runs.
package struct MigrationSettings: Sendable {
    /// Check every item and change nothing.
    package var dryRun = false
    /// Delete the items that cannot be migrated (they are returned) instead of changing nothing.
    package var allowRejects = false
    /// Where an unfinished migration keeps its progress (stores that migrate item by item).
    package var checkpointFile: String
    /// Items per page read (the unit of progress of an item-by-item migration).
    package var pageSize = 100

    package init(checkpointFile: String) { self.checkpointFile = checkpointFile }
}

/// What a migration did.
package struct MigrationResult: Sendable {
    package enum Status: Sendable {
        /// Every item migrated.
        case migrated
        /// Migrated; the items that could not be were deleted (`allowRejects`).
        case migratedWithRejects
        /// Items cannot be migrated, so the store is unchanged.
        case refused
        /// Checked only.
        case dryRun
        /// Items that changed since the check cannot be migrated: the migration stopped part-way
        /// (every item whole, in one version or the other) and resumes when run again.
        case stopped
    }

    package let outcome: MigrationOutcome
    package let status: Status
    /// Whether an unfinished migration was resumed (its counts come from the check that began it).
    package let resumed: Bool
    /// Tables of entities the end version no longer has: left in place, for the user to delete.
    package let tablesLeft: [String]

    package init(outcome: MigrationOutcome, status: Status, resumed: Bool = false, tablesLeft: [String] = []) {
        self.outcome = outcome
        self.status = status
        self.resumed = resumed
        self.tablesLeft = tablesLeft
    }
}
