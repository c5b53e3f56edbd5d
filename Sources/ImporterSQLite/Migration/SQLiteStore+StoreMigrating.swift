import Foundation
import ImporterCore

extension SQLiteStore: StoreMigrating {
    /// The model version the store holds (an SQLite store has no unfinished migration: each
    /// runs in one transaction). See `storedModel(in:acceptModelChange:)`.
    package func recordedVersion(in versions: VersionedModel, acceptModelChange: Bool) throws -> RecordedVersion? {
        RecordedVersion(model: try storedModel(in: versions, acceptModelChange: acceptModelChange))
    }

    /// Migrates the store in one transaction (docs/migration.md). When items cannot be migrated, the
    /// transaction is rolled back and the failure recorded in the history; with
    /// `allowRejects`, the migration runs again without those items (they are deleted in the
    /// same transaction). The failures carry the items as stored before the migration.
    package func migrate(_ plan: MigrationPlan, settings: MigrationSettings) throws -> MigrationResult {
        let started = Date()
        let checked = try migrate(plan, commit: !settings.dryRun)
        let failures = try storedItems(of: checked.failures, in: plan.from)
        let outcome = MigrationOutcome(
            steps: checked.steps.map { step in
                .init(
                    from: step.from, to: step.to, items: step.items,
                    failures: failures.filter { $0.toVersion == step.to })
            })
        if settings.dryRun { return MigrationResult(outcome: outcome, status: .dryRun) }
        if failures.isEmpty { return MigrationResult(outcome: outcome, status: .migrated) }
        guard settings.allowRejects else {
            try recordFailedMigration(
                plan, started: started, failedItems: failures.count,
                note: "rolled back: \(failures.count) items cannot be migrated, see rejects.ndjson")
            return MigrationResult(outcome: outcome, status: .refused)
        }
        let keys = Dictionary(grouping: failures, by: \.entity).mapValues { $0.map(\.key) }
        let again = try migrate(
            plan, commit: true, deleting: keys,
            note: "\(failures.count) items left out (--allow-rejects), see rejects.ndjson")
        guard again.failures.isEmpty else {
            throw StoreError(
                .conflictingWriter,
                "\(path): a second migration without the failed items failed again; the store is unchanged",
                operation: "migrate")
        }
        return MigrationResult(
            outcome: MigrationOutcome(
                steps: zip(outcome.steps, again.steps).map { checkedStep, step in
                    .init(from: step.from, to: step.to, items: step.items, failures: checkedStep.failures)
                }), status: .migratedWithRejects)
    }

    /// The failures, each with its item as stored before the migration (the store is back at
    /// the plan's start version: the migration that met them was rolled back).
    private func storedItems(of failures: [MigrationFailure], in model: Model) throws -> [MigrationFailure] {
        guard !failures.isEmpty else { return [] }
        try prepareToRead(model)
        return try failures.map { failure in
            let item = try model.entity(named: failure.entity).flatMap { try fetch(failure.key, of: $0) }
            return MigrationFailure(
                entity: failure.entity, key: failure.key, rejection: failure.rejection,
                toVersion: failure.toVersion, item: item)
        }
    }
}
