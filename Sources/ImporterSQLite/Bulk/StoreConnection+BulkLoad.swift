import Foundation
import ImporterCore

/// The bulk path of the store (`BulkLoad`): which entities take it, how their staged rows
/// commit with the store's checkpoint, and how their tables are built when the run finishes.
///
/// `_importer_bulk` holds, per entity, how many rows are staged as of the store's last commit;
/// it commits in the same transaction as the checkpoint, so a resumed run keeps exactly the
/// rows its checkpoint counts. It is emptied in the transaction that builds the tables.
extension StoreConnection {
    func beginBulkLoad(of entities: [Entity], newLoads: Bool, resuming: Bool) throws -> Set<String> {
        try database.execute(
            "CREATE TABLE IF NOT EXISTS _importer_bulk (entity TEXT PRIMARY KEY, staged INTEGER NOT NULL)")
        let recorded = try stagedRows()
        let interrupted = resuming ? recorded : [:]
        // What the interrupted run staged is built by this one, whatever the pipeline says now.
        let chosen = try entities.filter { entity in
            try interrupted[entity.name] != nil || (newLoads && canLoadInBulk(entity))
        }
        let resumed = chosen.filter { interrupted[$0.name] != nil }, resumedNames = Set(resumed.map(\.name))
        for name in recorded.keys where !resumedNames.contains(name) {
            try database.execute("DELETE FROM _importer_bulk WHERE entity = ?", [.string(name)])
        }
        try dropStagedTables(keeping: resumed)
        let stagingPath = StagedRows.path(ofStore: path)
        guard !chosen.isEmpty else {
            StagedRows.remove(stagingPath)
            return []
        }
        // In the store: the tables it can adopt, and what an interrupted run staged there.
        var inStore: [Entity] = [], inFile: [Entity] = []
        for entity in chosen {
            let staged =
                interrupted[entity.name] != nil
                ? try hasTable(StagedRows.stagedTable(of: entity)) : try canAdopt(entity)
            if staged { inStore.append(entity) } else { inFile.append(entity) }
        }
        let fileResumed = inFile.contains { interrupted[$0.name] != nil }
        if fileResumed, !FileManager.default.fileExists(atPath: stagingPath) {
            throw StoreError(
                .unusableCheckpoint,
                "\(stagingPath): the rows staged by the interrupted run are gone; run without --resume to start over",
                operation: "resume")
        }
        let storeTables = StagedRows(inStore: database, path: path)
        for entity in inStore { try storeTables.stage(entity, keeping: interrupted[entity.name]) }
        var file: StagedRows?
        if inFile.isEmpty {
            StagedRows.remove(stagingPath)
        } else {
            file = try StagedRows(storePath: path, fresh: !fileResumed)
            for entity in inFile { try file?.stage(entity, keeping: interrupted[entity.name]) }
        }
        // Staging in the store appends: when every entity of the run is staged, a small page
        // cache serves it as well, and the pages stay out of the run's memory.
        if inStore.count == entities.count {
            try database.execute("PRAGMA cache_size = \(StagedRows.sortCacheSize)")
            if Self.readsNothingElse(entities) { stageUnderRollbackJournal() }
        }
        bulk = BulkLoad(storeTables: storeTables, file: file, entities: chosen)
        return Set(chosen.map(\.name))
    }

    /// Whether the references of `entities` name only each other: when they are all loaded in
    /// bulk, the key checks then find every parent among the run's own keys or nowhere, and
    /// read nothing from the store.
    private static func readsNothingElse(_ entities: [Entity]) -> Bool {
        let names = Set(entities.map(\.name))
        return entities.allSatisfy { $0.toOneRelationships.allSatisfy { names.contains($0.destination) } }
    }

    /// Stages under a rollback journal instead of the WAL, when no other connection has the
    /// store open: each staged page is then written once, into the file, where the WAL writes
    /// it twice (into the WAL, then back). The checkpointer has nothing to copy then and ends.
    /// Readers wait for the run's batches meanwhile, which in WAL they would not; the store is
    /// in WAL mode again when the run finishes (`leaveRollbackJournal`).
    private func stageUnderRollbackJournal() {
        stopCheckpointer()
        if (try? switchJournal(to: "delete")) == true {
            stagesUnderRollbackJournal = true
        } else if !holdsCommits {
            try? startCheckpointer()
        }
    }

    /// Puts the store back in WAL mode after a bulk load staged under a rollback journal. If
    /// another connection has the store open, it stays as it is until the store is opened
    /// again (by a run or the library), which puts it in WAL mode.
    func leaveRollbackJournal() {
        guard stagesUnderRollbackJournal else { return }
        stagesUnderRollbackJournal = false
        _ = try? switchJournal(to: "wal")
    }

    /// Whether `entity` can take the bulk path: its table is empty, and has no trigger or
    /// index of its own that a build in key order would bypass or trip on.
    private func canLoadInBulk(_ entity: Entity) throws -> Bool {
        guard try database.integer("SELECT count(*) FROM (SELECT 1 FROM \(quoted(entity.table)) LIMIT 1)") == 0 else {
            return false
        }
        let extras = try database.integer(
            """
            SELECT count(*) FROM sqlite_master WHERE tbl_name = ? AND (type = 'trigger' OR (type = 'index' AND sql IS NOT NULL))
            """, [.string(entity.table)])
        return extras == 0
    }

    /// Whether the store can adopt a table staged in it as the table of `entity` (`BulkLoad.adopt`):
    /// the table is exactly as this version creates it, with its key's index only, the key is
    /// not the rowid, and the connection may change definitions in the schema.
    private func canAdopt(_ entity: Entity) throws -> Bool {
        guard !BulkLoad.keyIsRowid(entity),
            try database.storedDefinition(ofTable: entity.table) == tableDefinition(entity),
            try database.strings(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", [.string(entity.table)])
                == ["sqlite_autoindex_\(entity.table)_1"]
        else { return false }
        // SQLITE_DBCONFIG_DEFENSIVE, where a build of SQLite turns it on, keeps the pragma off.
        try database.execute("PRAGMA writable_schema = ON")
        defer { try? database.execute("PRAGMA writable_schema = OFF") }
        return try database.integer("PRAGMA writable_schema") == 1
    }

    /// Drops the tables an interrupted run staged in the store, but those of `resumed`.
    private func dropStagedTables(keeping resumed: [Entity]) throws {
        let kept = Set(resumed.map(StagedRows.stagedTable))
        let staged = try database.strings(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '\\_importer\\_staged\\_%' ESCAPE '\\'")
        for table in staged where !kept.contains(table) { try database.execute("DROP TABLE \(quoted(table))") }
    }

    /// Staged rows per entity as of the last commit.
    private func stagedRows() throws -> [String: Int64] {
        var rows: [String: Int64] = [:]
        try database.cached("SELECT entity, staged FROM _importer_bulk").query { rows[$0.text(0) ?? ""] = $0.int64(1) }
        return rows
    }

    /// Records how many rows are staged in the store's open transaction (its commit follows),
    /// and commits those of the staging file. The file first: after a crash between the two
    /// commits, it holds rows the store does not count, and a resumed run drops them. Returns
    /// whether the file committed rows.
    func commitStagedRows(_ bulk: BulkLoad) throws -> Bool {
        try beginTransactionIfNeeded()
        for staging in bulk.stagings {
            for (entity, rows) in staging.rows.sorted(by: { $0.key < $1.key })
            where rows != staging.committedRows[entity] {
                try database.execute(
                    "INSERT INTO _importer_bulk (entity, staged) VALUES (?, ?) ON CONFLICT (entity) DO UPDATE SET staged = excluded.staged",
                    [.string(entity), .integer(rows)])
            }
        }
        guard let file = bulk.file, file.hasUncommitted else { return false }
        try file.commit()
        return true
    }

    /// Builds the tables of the bulk load from its staged rows, in one transaction of the
    /// store (an atomic run's own), and removes the staging file.
    func buildStagedTables(_ bulk: BulkLoad) throws {
        if let reason = bulk.unbuildable {
            throw StoreError(
                .storage(resultCode: nil),
                "\(path): the bulk load was not built (\(reason)); run again with --resume to build it",
                operation: "build")
        }
        let autocommit = database.isAutocommit, attach = autocommit && bulk.file != nil
        // Rows copied from the staging file: a rollback journal writes their pages once, where
        // WAL would write them twice (to the WAL, then into the file). Only when no other
        // connection has the store open: the checkpointer's ends first. Tables staged in the
        // store are only indexed: their build stays in WAL, while the checkpointer copies the
        // rows the run committed into the file (docs/writes.md#wal-checkpoints).
        if attach { stopCheckpointer() }
        let journalSwitched = attach && (try? switchJournal(to: "delete")) == true
        defer { if journalSwitched { _ = try? switchJournal(to: "wal") } }
        do {
            try bulk.file?.commit()
            // The sort takes the page cache's size in memory per thread, and two threads. The
            // copy that follows writes each page once: a small cache costs it nothing.
            try database.execute("PRAGMA cache_size = \(StagedRows.sortCacheSize); PRAGMA threads = 2")
            if attach, let file = bulk.file {
                try database.execute("ATTACH DATABASE ? AS importer_bulk", [.string(file.path)])
                // A scratch file, as on its own connection: no syncs.
                try database.execute("PRAGMA importer_bulk.synchronous = OFF")
                try bulk.indexForCopy(attachedAs: "importer_bulk", in: database)
            }
            try beginTransactionIfNeeded()
            try bulk.build(into: database, attachedAs: attach ? "importer_bulk" : nil, statements: prepared)
            try database.execute("DELETE FROM _importer_bulk", [])
            // The run's commits are in the file by now, or nearly: the store's last connection
            // copies the build's pages when it closes.
            stopCheckpointer()
            try database.commit()
        } catch {
            rollBack()
            endBuild(attached: attach)
            throw StoreError.sqlite(error, at: path, "cannot build the tables of the bulk load", operation: "build")
        }
        endBuild(attached: attach)
        bulk.file?.close()
    }

    private func endBuild(attached: Bool) {
        try? database.execute("PRAGMA cache_size = \(Self.cacheSize); PRAGMA threads = 0")
        if attached { try? database.execute("DETACH DATABASE importer_bulk") }
    }
}
