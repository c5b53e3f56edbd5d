import Foundation
import ImporterAWS
import ImporterCore

extension DynamoDBStore: StoreMigrating {
    /// The model version the tables hold (nil when nothing is recorded) and the version an
    /// unfinished migration is taking them to. Throws `ConfigurationError` when the model
    /// directory lacks that version or its file differs from the one the tables were made with
    /// (`acceptModelChange` is refused: the meta table keeps the checksum it was created with).
    package func recordedVersion(in versions: VersionedModel, acceptModelChange: Bool) throws -> RecordedVersion? {
        if acceptModelChange {
            throw StoreError(
                .invalidSetting("acceptModelChange"),
                "--accept-model-change is for SQLite stores; a DynamoDB meta table keeps the checksum it was created with"
            )
        }
        let name = versions.newest.name
        guard let recorded = try recorded(model: name) else { return nil }
        guard let model = versions.version(recorded.version) else {
            throw ConfigurationError(
                file: versions.newest.file, key: "version",
                "the tables hold \(versions.newest.name) version \(recorded.version), which the model directory lacks")
        }
        guard model.checksum == recorded.checksum else {
            throw ConfigurationError(
                file: model.file,
                "model \(model.name) version \(model.version) differs from the version these tables were created with (checksum \(recorded.checksum) vs \(model.checksum)); a released model version must not change — restore the file, and add a new version for the change"
            )
        }
        return RecordedVersion(model: model, migratingTo: recorded.migratingTo)
    }

    /// Migrates the tables through every step of `plan`, item by item (docs/migration.md). First every
    /// item is read and migrated in memory: if any cannot be, nothing is written (unless
    /// `allowRejects`). Then the meta table marks the migration as begun, and each table is
    /// rewritten item by item with version-conditioned writes, progress saved per page; an interrupted
    /// migration resumes where it stopped when called again. Last, the meta table records the
    /// end version and the history entry.
    func migrate(_ plan: MigrationPlan, _ settings: MigrationSettings, started: Date) async throws
        -> MigrationResult
    {
        let recorded = try await tables.recorded(plan.from.name)
        let resuming = recorded?.migratingTo != nil
        let migrations = plan.from.entities.compactMap {
            ItemMigration(plan: plan, entity: $0, tables: tables, dates: options.dates)
        }
        let tablesLeft = plan.from.entities.filter { plan.currentName(ofEntity: $0.name) == nil }.map(tables.table(of:))
        var tableSettings = TableMigrator.Settings()
        tableSettings.segments = max(1, options.concurrency)
        tableSettings.pageSize = settings.pageSize
        tableSettings.allowRejects = settings.allowRejects

        let progress: MigrationProgress
        var checked = MigrationOutcome()
        if let migratingTo = recorded?.migratingTo {
            progress = try Self.resumedProgress(plan, settings, migratingTo: migratingTo)
        } else {
            var counted: [(items: Int, failures: [MigrationFailure])] = []
            for migration in migrations {
                counted.append(
                    try await TableMigrator(
                        client: client, migration: migration, settings: tableSettings, retries: retries
                    ).check())
            }
            checked = Self.outcome(plan, counted)
            if settings.dryRun {
                return MigrationResult(outcome: checked, status: .dryRun, resumed: false, tablesLeft: tablesLeft)
            }
            if !checked.failures.isEmpty && !settings.allowRejects {
                try await tables.recordRefusedMigration(
                    plan,
                    MigrationRecord(
                        from: plan.from.version, to: plan.to.version, checksum: plan.to.checksum, started: started,
                        finished: Date(),
                        items: 0, applied: false,
                        note: "nothing written: \(checked.failures.count) items cannot be migrated"))
                return MigrationResult(outcome: checked, status: .refused, resumed: false, tablesLeft: tablesLeft)
            }
            try await tables.ensureTables(plan.to)
            try await tables.beginMigration(plan, started: started)
            let steps = checked.steps.map {
                MigrationReport.Step(from: $0.from, to: $0.to, items: $0.items, failed: $0.failures.count)
            }
            progress = MigrationProgress(
                MigrationCheckpoint(from: plan.from.version, to: plan.to.version, steps: steps),
                path: settings.checkpointFile)
            try progress.start()
        }

        var failures: [MigrationFailure] = []
        // The check's counts, with the failures met while writing.
        let steps = progress.steps
        func outcome() -> MigrationOutcome {
            MigrationOutcome(
                steps: steps.map { step in
                    .init(
                        from: step.from, to: step.to, items: step.items,
                        failures: failures.filter { $0.toVersion == step.to })
                })
        }
        for migration in migrations where migration.changesItems {
            let run = try await TableMigrator(
                client: client, migration: migration, settings: tableSettings, retries: retries
            ).run(progress)
            failures += run.failures
            if run.stopped {
                return MigrationResult(outcome: outcome(), status: .stopped, resumed: resuming, tablesLeft: tablesLeft)
            }
        }
        var notes: [String] = []
        if !failures.isEmpty { notes.append("\(failures.count) items left out (--allow-rejects), see rejects.ndjson") }
        if !tablesLeft.isEmpty {
            notes.append("tables no longer in the model, left in place: \(tablesLeft.joined(separator: ", "))")
        }
        try await tables.finishMigration(
            plan,
            MigrationRecord(
                from: plan.from.version, to: plan.to.version, checksum: plan.to.checksum, started: started,
                finished: Date(),
                items: steps.last?.items ?? 0, applied: true, note: notes.isEmpty ? nil : notes.joined(separator: "; "))
        )
        try progress.remove()
        return MigrationResult(
            outcome: outcome(), status: failures.isEmpty ? .migrated : .migratedWithRejects,
            resumed: resuming, tablesLeft: tablesLeft)
    }

    /// The progress of the unfinished migration the tables record (to `migratingTo`), from its
    /// checkpoint, to resume it.
    private static func resumedProgress(_ plan: MigrationPlan, _ settings: MigrationSettings, migratingTo: Int) throws
        -> MigrationProgress
    {
        guard !settings.dryRun else {
            throw StoreError(
                .unfinishedMigration(to: migratingTo),
                "a migration of these tables to version \(migratingTo) is unfinished: a dry run cannot check it")
        }
        guard migratingTo == plan.to.version else {
            throw StoreError(
                .unfinishedMigration(to: migratingTo),
                "a migration of these tables to version \(migratingTo) is unfinished")
        }
        guard let checkpoint = try MigrationCheckpoint.load(from: settings.checkpointFile),
            checkpoint.from == plan.from.version, checkpoint.to == plan.to.version
        else {
            throw StoreError(
                .unusableCheckpoint,
                "the unfinished migration's checkpoint \(settings.checkpointFile) is missing or is another migration's; resume it with the report directory that began it"
            )
        }
        return MigrationProgress(checkpoint, path: settings.checkpointFile)
    }

    /// Per step: the items that come out of it and those it refuses, from each entity's item
    /// count and failures (named by the version they fail to reach).
    private static func outcome(_ plan: MigrationPlan, _ entities: [(items: Int, failures: [MigrationFailure])])
        -> MigrationOutcome
    {
        MigrationOutcome(
            steps: plan.steps.map { step in
                let items = entities.reduce(0) { total, entity in
                    total + entity.items - entity.failures.filter { $0.toVersion <= step.to.version }.count
                }
                let failures = entities.flatMap(\.failures).filter { $0.toVersion == step.to.version }
                return .init(from: step.from.version, to: step.to.version, items: items, failures: failures)
            })
    }
}
