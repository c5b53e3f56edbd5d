import ImporterCore

/// `_importer_unchanged_inputs`: the inputs whose every record the last run stored, kept
/// while nothing else writes. Triggers on every entity table empty it at the first write by any
/// other connection or tool; a run drops them (and empties it) before it writes, and records
/// its inputs again when it stored them in full with no other connection committing meanwhile.
/// A change of the schema (`PRAGMA schema_version`) voids the records too.
extension StoreConnection {
    static let unchangedInputsTable = "_importer_unchanged_inputs"

    /// Before a run writes: forgets the recorded inputs, drops the triggers (the run's own
    /// writes are not watched) and notes the data version, to see other connections' commits.
    func forgetUnchangedInputs() throws {
        let triggers = try watchingTriggerNames()
        let recorded = try hasTable(Self.unchangedInputsTable)
        if recorded || !triggers.isEmpty {
            try database.inTransaction(.immediate) {
                if recorded { try database.execute("DELETE FROM \(Self.unchangedInputsTable)") }
                for name in triggers { try database.execute("DROP TRIGGER \(quoted(name))") }
                return .commit
            }
        }
        inputWatch.start(at: try database.dataVersion())
    }

    /// Records `inputs` and the triggers that watch `model`'s tables, unless another connection
    /// committed since `forgetUnchangedInputs` (returns false then; `inputWatch` says).
    func recordUnchangedInputs(_ inputs: [UnchangedInput], of model: Model) throws -> Bool {
        guard let started = inputWatch.end() else { return false }
        var recorded = false
        try database.inTransaction(.immediate) {
            guard try database.dataVersion() == started else { return .rollback }
            try database.execute(
                """
                CREATE TABLE IF NOT EXISTS \(Self.unchangedInputsTable) (
                    path TEXT NOT NULL, entity TEXT NOT NULL, digest TEXT NOT NULL, setup TEXT NOT NULL,
                    records INTEGER NOT NULL, run_id TEXT NOT NULL, schema_version INTEGER NOT NULL DEFAULT -1,
                    PRIMARY KEY (entity, path))
                """)
            try database.execute("DELETE FROM \(Self.unchangedInputsTable)")
            for name in try watchingTriggerNames() { try database.execute("DROP TRIGGER \(quoted(name))") }
            for trigger in watchingTriggers(model) { try database.execute(trigger) }
            for input in inputs {
                try database.execute(
                    "INSERT INTO \(Self.unchangedInputsTable) (path, entity, digest, setup, records, run_id) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        .string(input.path), .string(input.entity), .string(input.digest), .string(input.setup),
                        .integer(Int64(input.records)), .string(input.runId),
                    ])
            }
            recorded = true
            return .commit
        }
        guard recorded else { return false }
        // The schema version the triggers made, which no later change of the schema leaves.
        try database.execute(
            "UPDATE \(Self.unchangedInputsTable) SET schema_version = ?",
            [.integer(try database.integer("PRAGMA schema_version"))])
        return true
    }

    /// The recorded inputs, if every table of `model` is still watched and the schema is the one
    /// they were recorded with; else none.
    func unchangedInputs(of model: Model) throws -> [UnchangedInput] {
        guard try hasTable(Self.unchangedInputsTable) else { return [] }
        var inputs: [UnchangedInput] = []
        try database.inTransaction(.deferred) {
            let present = Set(
                try database.strings(
                    "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name GLOB '_importer_unchanged_*'"))
            guard watchingTriggers(model).allSatisfy(present.contains) else { return .commit }
            let schema = try database.integer("PRAGMA schema_version")
            try database.cached(
                "SELECT path, entity, digest, setup, records, run_id FROM \(Self.unchangedInputsTable) WHERE schema_version = ?"
            )
            .query([.integer(schema)]) { row in
                inputs.append(
                    UnchangedInput(
                        path: row.text(0) ?? "", entity: row.text(1) ?? "", digest: row.text(2) ?? "",
                        setup: row.text(3) ?? "", records: Int(row.int64(4)), runId: row.text(5) ?? ""))
            }
            return .commit
        }
        return inputs
    }

    /// For each table of `model` and each of insert, update and delete: a trigger that empties
    /// the records at the first such write.
    private func watchingTriggers(_ model: Model) -> [String] {
        model.entities.flatMap { entity in
            ["INSERT", "UPDATE", "DELETE"].map { event in
                let name = quoted("_importer_unchanged_\(entity.table)_\(event.lowercased())")
                return "CREATE TRIGGER \(name) AFTER \(event) ON \(quoted(entity.table)) "
                    + "WHEN EXISTS (SELECT 1 FROM \(Self.unchangedInputsTable)) BEGIN DELETE FROM \(Self.unchangedInputsTable); END"
            }
        }
    }

    private func watchingTriggerNames() throws -> [String] {
        try database.strings(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name GLOB '_importer_unchanged_*'")
    }
}
