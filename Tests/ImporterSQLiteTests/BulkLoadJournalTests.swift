import Foundation
import ImporterCore
import TestSupport
import XCTest
@testable import ImporterSQLite

/// A first import (every entity of the run loaded in bulk, their references naming only each
/// other) stages under a rollback journal and leaves the store in WAL mode; any other run
/// stages in WAL (docs/writes.md#bulk-loads).
final class BulkLoadJournalTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "bulk-journal-\(UUID().uuidString)"
    var path: String { directory + "/store.sqlite" }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    let model = try! ModelLoader.load(path: LocationDumps.modelPath).newest
    var location: Entity { model.entity(named: "Location")! }
    var checkin: Entity { model.entity(named: "Checkin")! }
    var rules: VersionRules { VersionRules(entity: location, write: WriteConfig()) }

    func journalMode(_ store: SQLiteStore) throws -> String {
        try store.withConnection { try $0.database.strings("PRAGMA journal_mode").first ?? "" }
    }

    func automaticCheckpoint(_ store: SQLiteStore) throws -> Int64 {
        try store.withConnection { try $0.database.integer("PRAGMA wal_autocheckpoint") }
    }

    func locations(_ keys: Range<Int>) -> [PreparedRecord] {
        keys.map { index in
            PreparedRecord(
                inputIndex: 0, line: index + 2, byteOffset: 0, raw: [],
                values: [
                    .string("loc-\(index)"), .string("Place \(index)"), .double(1.5), .double(2.5),
                    .date(1_709_288_130_250), .boolean(true), .null, .integer(0), .null,
                ])
        }
    }

    func stage(_ records: [PreparedRecord], into store: SQLiteStore) throws {
        let outcomes = try store.write(records, of: location, rules: rules)
        XCTAssertEqual(outcomes.filter { if case .inserted = $0.result { true } else { false } }.count, records.count)
        try store.commit()
    }

    func testAFirstImportStagesUnderARollbackJournalAndEndsInWAL() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        try store.beginRun(atomic: false)
        XCTAssertEqual(try journalMode(store), "wal")
        XCTAssertEqual(
            try store.beginBulkLoad(of: [location, checkin], newLoads: true, resuming: false), ["Location", "Checkin"])
        XCTAssertEqual(try journalMode(store), "delete")
        XCTAssertEqual(try automaticCheckpoint(store), 1000, "no checkpointer: there is no WAL to copy")
        try stage(locations(0..<3000), into: store)
        // Staged, not stored: the key checks find a parent among the run's keys or nowhere.
        XCTAssertFalse(try store.contains(.string("loc-1"), in: location))
        try stage(locations(3000..<6000), into: store)
        try store.finishRun(commit: true)
        XCTAssertEqual(try journalMode(store), "wal")
        store.close()
        XCTAssertEqual(try ImporterProcess.sqlite(path, "PRAGMA journal_mode"), "wal")
        XCTAssertEqual(try ImporterProcess.sqlite(path, "PRAGMA integrity_check"), "ok")
        XCTAssertEqual(try ImporterProcess.sqlite(path, "SELECT count(*) FROM \"AWS-Locations\""), "6000")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-journal"))
    }

    /// The library opens the store while a first import stages, its batch in flight: it works
    /// under the run's journal, and waits for the batch to read.
    func testTheStoreOpensWhileAFirstImportStages() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        try store.beginRun(atomic: false)
        _ = try store.beginBulkLoad(of: [location, checkin], newLoads: true, resuming: false)
        XCTAssertEqual(try journalMode(store), "delete")
        // Staged, not committed: the run holds the store's write lock.
        _ = try store.write(locations(0..<3000), of: location, rules: rules)
        let beside = try SQLiteStore(path: path)
        try store.commit()
        XCTAssertEqual(
            try beside.withConnection {
                try $0.database.integer("SELECT count(*) FROM \"_importer_staged_AWS-Locations\"")
            }, 3000)
        beside.close()
        try store.finishRun(commit: true)
        XCTAssertEqual(try journalMode(store), "wal")
        store.close()
        XCTAssertEqual(try ImporterProcess.sqlite(path, "SELECT count(*) FROM \"AWS-Locations\""), "3000")
    }

    /// Check-ins alone: their references name locations the store holds, which the key checks
    /// read beside the writer, as WAL allows.
    func testARunWhoseReferencesNameAnEntityOutsideItStagesInWAL() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        try store.beginRun(atomic: false)
        XCTAssertEqual(try store.beginBulkLoad(of: [checkin], newLoads: true, resuming: false), ["Checkin"])
        XCTAssertEqual(try journalMode(store), "wal")
        XCTAssertEqual(try automaticCheckpoint(store), 0, "the checkpointer copies the WAL")
        try store.finishRun(commit: true)
        store.close()
    }

    /// Another connection has the store open as the run begins: it stays in WAL, whose readers
    /// never wait for the writer.
    func testAStoreOpenElsewhereStagesInWAL() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        let reader = try Database(path: path)
        XCTAssertEqual(try reader.integer("SELECT count(*) FROM \"AWS-Locations\""), 0)
        try store.beginRun(atomic: false)
        XCTAssertEqual(
            try store.beginBulkLoad(of: [location, checkin], newLoads: true, resuming: false), ["Location", "Checkin"])
        XCTAssertEqual(try journalMode(store), "wal")
        XCTAssertEqual(try automaticCheckpoint(store), 0, "the checkpointer copies the WAL")
        try stage(locations(0..<100), into: store)
        XCTAssertEqual(try reader.integer("SELECT count(*) FROM \"_importer_staged_AWS-Locations\""), 100)
        try store.finishRun(commit: true)
        XCTAssertEqual(try reader.integer("SELECT count(*) FROM \"AWS-Locations\""), 100)
        store.close()
    }
}
