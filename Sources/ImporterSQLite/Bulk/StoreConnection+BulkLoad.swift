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
        try database.execute("CREATE TABLE IF NOT EXISTS _importer_bulk (entity TEXT PRIMARY KEY, staged INTEGER NOT NULL)")
        let interrupted = resuming ? try stagedRows() : [:]
        // What the interrupted run staged is built by this one, whatever the pipeline says now.
        let chosen = try entities.filter { entity in try interrupted[entity.name] != nil || (newLoads && canLoadInBulk(entity)) }
        let stagingPath = StagingFile.path(ofStore: path)
        if interrupted.isEmpty || chosen.isEmpty { try database.execute("DELETE FROM _importer_bulk", []) }
        guard !chosen.isEmpty else {
            StagingFile.remove(stagingPath)
            return []
        }
        if !interrupted.isEmpty, !FileManager.default.fileExists(atPath: stagingPath) {
            throw StoreError("\(stagingPath): the rows staged by the interrupted run are gone; run without --resume to start over")
        }
        let file = try StagingFile(storePath: path, fresh: interrupted.isEmpty)
        for entity in chosen { try file.stage(entity, keeping: interrupted[entity.name]) }
        bulk = BulkLoad(file: file, entities: chosen)
        return Set(chosen.map(\.name))
    }

    /// Whether `entity` can take the bulk path: its table is empty, and has no trigger or
    /// index of its own that a build in key order would bypass or trip on.
    private func canLoadInBulk(_ entity: Entity) throws -> Bool {
        guard try database.integer("SELECT count(*) FROM (SELECT 1 FROM \(quoted(entity.table)) LIMIT 1)") == 0 else { return false }
        let extras = try database.integer("""
            SELECT count(*) FROM sqlite_master WHERE tbl_name = ? AND (type = 'trigger' OR (type = 'index' AND sql IS NOT NULL))
            """, [.string(entity.table)])
        return extras == 0
    }

    /// Staged rows per entity as of the last commit.
    private func stagedRows() throws -> [String: Int64] {
        var rows: [String: Int64] = [:]
        try database.cached("SELECT entity, staged FROM _importer_bulk").query { rows[$0.text(0) ?? ""] = $0.int64(1) }
        return rows
    }

    /// Commits the staged rows, and records how many there are in the store's open transaction
    /// (its commit follows). Staged first: after a crash between the two commits, the staging
    /// file holds rows the store does not count, and a resumed run drops them.
    func commitStagedRows(_ bulk: BulkLoad) throws {
        try beginTransactionIfNeeded()
        for (entity, rows) in bulk.file.rows.sorted(by: { $0.key < $1.key }) {
            try database.execute("INSERT INTO _importer_bulk (entity, staged) VALUES (?, ?) ON CONFLICT (entity) DO UPDATE SET staged = excluded.staged",
                                 [.string(entity), .integer(rows)])
        }
        try bulk.file.commit()
    }

    /// Builds the tables of the bulk load from its staged rows, in one transaction of the
    /// store (an atomic run's own), and removes the staging file.
    func buildStagedTables(_ bulk: BulkLoad) throws {
        if let reason = bulk.unbuildable {
            throw StoreError("\(path): the bulk load was not built (\(reason)); run again with --resume to build it")
        }
        let attach = database.isAutocommit
        // A rollback journal writes the new pages once; WAL would write them twice (to the WAL,
        // then into the file). Only when no other connection has the store open.
        let journalSwitched = attach && (try? database.strings("PRAGMA journal_mode = DELETE").first) == "delete"
        defer { if journalSwitched { try? database.execute("PRAGMA journal_mode = WAL") } }
        do {
            try bulk.file.commit()
            // The sort takes the page cache's size in memory per thread, and two threads. The
            // copy that follows writes each page once: a small cache costs it nothing.
            try database.execute("PRAGMA cache_size = \(StagingFile.sortCacheSize); PRAGMA threads = 2")
            if attach {
                try database.execute("ATTACH DATABASE ? AS importer_bulk", [.string(bulk.file.path)])
                // A scratch file, as on its own connection: no syncs.
                try database.execute("PRAGMA importer_bulk.synchronous = OFF")
                try bulk.indexForCopy(attachedAs: "importer_bulk", in: database)
            }
            try beginTransactionIfNeeded()
            try bulk.build(into: database, attachedAs: attach ? "importer_bulk" : nil, statements: prepared)
            try database.execute("DELETE FROM _importer_bulk", [])
            try database.commit()
        } catch {
            rollBack()
            endBuild(attached: attach)
            throw error as? StoreError ?? StoreError("\(path): cannot build the tables of the bulk load: \(error)")
        }
        endBuild(attached: attach)
        bulk.file.close()
    }

    private func endBuild(attached: Bool) {
        try? database.execute("PRAGMA cache_size = \(Self.cacheSize); PRAGMA threads = 0")
        if attached { try? database.execute("DETACH DATABASE importer_bulk") }
    }
}
