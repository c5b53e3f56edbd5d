import Foundation
import ImporterCore
import TestSupport
import XCTest
@testable import ImporterSQLite

final class SQLiteStoreTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "store-\(UUID().uuidString)"
    var path: String { directory + "/store.sqlite" }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    let model = try! ModelLoader.parse(
        text: """
            model: Shop
            version: 1
            entities:
              Product:
                hashKey: sku
                versionAttribute: version
                attributes:
                  sku:     { type: string }
                  name:    { type: string }
                  price:   { type: decimal }
                  added:   { type: date }
                  active:  { type: boolean }
                  weight:  { type: double }
                  version: { type: int64 }
            """, file: "shop.yaml")

    var entity: Entity { model.entities[0] }
    var rules: VersionRules { VersionRules(entity: entity, write: WriteConfig()) }

    func record(_ sku: String, _ name: String, line: Int = 1) -> PreparedRecord {
        PreparedRecord(
            inputIndex: 0, line: line, byteOffset: 0, raw: [],
            values: [
                .string(sku), .string(name), .decimal("12345678901234567.123456789"), .date(1_709_288_130_250),
                .boolean(true), .double(0.1), .null,
            ])
    }

    func write(_ store: SQLiteStore, _ records: [PreparedRecord]) throws -> [String] {
        let outcomes = try store.write(records, of: entity, rules: rules)
        try store.commit()
        return outcomes.map { outcome in
            switch outcome.result {
            case .inserted: return "inserted"
            case .updated: return "updated"
            case .unchanged: return "unchanged"
            case .rolledBack: return "rolledBack"
            case .rejected(let rejection): return "rejected:\(rejection.reason.rawValue)"
            }
        }
    }

    func sqlite(_ query: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, query]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testInsertUnchangedUpdateWithVersionsAndExactValues() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        XCTAssertEqual(try write(store, [record("a", "one"), record("b", "two")]), ["inserted", "inserted"])
        XCTAssertEqual(try write(store, [record("a", "one"), record("b", "TWO")]), ["unchanged", "updated"])
        store.close()
        XCTAssertEqual(
            try sqlite("SELECT sku, name, price, added, active, weight, version FROM Product ORDER BY sku"),
            """
            a|one|12345678901234567.123456789|2024-03-01T10:15:30.250Z|1|0.1|1
            b|TWO|12345678901234567.123456789|2024-03-01T10:15:30.250Z|1|0.1|2
            """)
        XCTAssertEqual(try sqlite("SELECT value FROM _importer_meta WHERE key = 'version'"), "1")
        XCTAssertEqual(try sqlite("PRAGMA journal_mode"), "wal")
    }

    /// Inputs are recorded as stored only when no other connection committed during the run,
    /// and forgotten at the next write of anyone, or when a run begins.
    func testUnchangedInputsAreRecordedOnlyWhenNobodyElseWrote() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        let input = UnchangedInput(
            path: "/data/products.csv", entity: "Product", digest: "d1", setup: "s1", records: 1, runId: "r1")

        try store.beginRun(atomic: false)
        _ = try write(store, [record("a", "one")])
        _ = try sqlite("INSERT INTO Product (sku, name, version) VALUES ('x', 'theirs', 1)")
        try store.finishRun(commit: true)
        XCTAssertFalse(
            try store.recordUnchangedInputs([input], of: model), "another connection committed during the run")
        XCTAssertEqual(try store.unchangedInputs(of: model), [])

        try store.beginRun(atomic: false)
        _ = try write(store, [record("b", "two")])
        try store.finishRun(commit: true)
        XCTAssertTrue(try store.recordUnchangedInputs([input], of: model))
        XCTAssertEqual(try store.unchangedInputs(of: model), [input])
        XCTAssertEqual(try store.unchangedInputs(of: model), [input], "reading them changes nothing")

        _ = try sqlite("UPDATE Product SET name = 'edited' WHERE sku = 'zzz'")
        XCTAssertEqual(try store.unchangedInputs(of: model), [input], "an update of no row writes nothing")
        _ = try sqlite("DELETE FROM Product WHERE sku = 'x'")
        XCTAssertEqual(try store.unchangedInputs(of: model), [], "a delete by another connection")

        try store.beginRun(atomic: false)
        try store.finishRun(commit: true)
        XCTAssertTrue(try store.recordUnchangedInputs([input], of: model))
        try store.beginRun(atomic: false)
        XCTAssertEqual(try store.unchangedInputs(of: model), [], "a run forgets them before it writes")
        XCTAssertEqual(
            try sqlite("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"), "0",
            "and its writes are not watched")
        try store.finishRun(commit: true)
        store.close()
    }

    /// A re-run is decided by fingerprints of the stored content; every change the fingerprints
    /// do not see (our own writes, a rollback, a delete, another connection) must still be written.
    func testTheContentIndexDecidesReRunsAndFollowsEveryChange() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        let all = (0..<2000).map { record(String(format: "sku-%04d", $0), "n") }
        XCTAssertEqual(Set(try write(store, all)), ["inserted"])
        XCTAssertNil(store.contentIndexSize(entity), "a first import has nothing to index")
        XCTAssertEqual(Set(try write(store, all)), ["unchanged"])
        XCTAssertEqual(store.contentIndexSize(entity)?.items, 2000, "a re-run indexes the stored content")
        XCTAssertEqual(Set(try write(store, all)), ["unchanged"])

        // Our own writes keep the index right.
        XCTAssertEqual(try write(store, [record("sku-0001", "changed")]), ["updated"])
        XCTAssertEqual(try write(store, [record("sku-0001", "n")]), ["updated"])
        XCTAssertEqual(try write(store, [record("sku-0001", "n")]), ["unchanged"])

        // A rolled-back write is forgotten with its transaction.
        _ = try store.write([record("sku-0003", "rolled back")], of: entity, rules: rules)
        try store.finishRun(commit: false)
        XCTAssertEqual(try write(store, [record("sku-0003", "rolled back")]), ["updated"])

        // A deleted item is written again.
        XCTAssertEqual(Set(try write(store, all)), ["unchanged", "updated"])
        XCTAssertNotNil(store.contentIndexSize(entity))
        XCTAssertTrue(try store.delete(.string("sku-0004"), expectedVersion: 1, of: entity))
        try store.commit()
        XCTAssertEqual(try write(store, [record("sku-0004", "n")]), ["inserted"])

        // Another connection's commit drops the index: its change is overwritten, not missed.
        XCTAssertEqual(try sqlite("UPDATE Product SET name = 'outside' WHERE sku = 'sku-0002'; SELECT changes()"), "1")
        XCTAssertEqual(try write(store, [record("sku-0002", "n")]), ["updated"])
        XCTAssertNil(store.contentIndexSize(entity))
        XCTAssertEqual(Set(try write(store, all)), ["unchanged"])
        store.close()
        XCTAssertEqual(
            try sqlite(
                "SELECT sku, name, version FROM Product WHERE sku IN ('sku-0000', 'sku-0001', 'sku-0002', 'sku-0003', 'sku-0004') ORDER BY sku"
            ),
            """
            sku-0000|n|1
            sku-0001|n|3
            sku-0002|n|2
            sku-0003|n|3
            sku-0004|n|1
            """)
        XCTAssertEqual(try sqlite("SELECT count(*), sum(version) FROM Product"), "2000|2005")
    }

    /// A large table is read by two threads (one on its own connection) when the transaction
    /// has written nothing yet; after a write of its own, by the writing connection alone, so
    /// that its uncommitted change is not missed.
    func testALargeTableIsReadOnTwoThreadsOnlyWhenNothingIsUncommitted() throws {
        var store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        let all = (0..<20_000).map { record(String(format: "sku-%05d", $0), "n") }
        XCTAssertEqual(Set(try write(store, all)), ["inserted"])
        XCTAssertEqual(Set(try write(store, all)), ["unchanged"])
        XCTAssertEqual(store.contentIndexSize(entity)?.items, 20_000)
        XCTAssertEqual(store.contentIndexSize(entity)?.readers, 2)
        XCTAssertEqual(
            try write(store, [record("sku-00000", "first"), record("sku-19999", "last")]), ["updated", "updated"])
        XCTAssertEqual(
            try write(store, [record("sku-00000", "first"), record("sku-19999", "last")]), ["unchanged", "unchanged"])
        store.close()

        store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        var changed = all
        changed[19_998] = record("sku-19998", "changed")
        XCTAssertEqual(try write(store, changed).filter { $0 != "unchanged" }, ["updated", "updated", "updated"])
        XCTAssertEqual(store.contentIndexSize(entity)?.items, 20_000)
        XCTAssertEqual(store.contentIndexSize(entity)?.readers, 1)
        XCTAssertEqual(try write(store, [record("sku-19998", "n")]), ["updated"])
        store.close()
        XCTAssertEqual(try sqlite("SELECT count(*), sum(version), sum(name = 'n') FROM Product"), "20000|20006|20000")
    }

    /// While a run writes, each commit reaches the store file without waiting for the WAL to
    /// fill, copied by a thread of its own (docs/writes.md#wal-checkpoints); the writer
    /// checkpoints itself again when the run ends. An atomic run commits once: no thread then.
    func testARunsCommitsAreCopiedIntoTheStoreFileWhileItWrites() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        func automaticCheckpoint() throws -> Int64 {
            try store.withConnection { try $0.database.integer("PRAGMA wal_autocheckpoint") }
        }
        // The store file alone, as a copy without its WAL: what was copied into it.
        let copy = directory + "/copy.sqlite"
        func rowsInTheFile() throws -> String {
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) } }
            return try ImporterProcess.sqlite(copy, "SELECT count(*) FROM Product")
        }
        XCTAssertEqual(try automaticCheckpoint(), 1000)
        try store.beginRun(atomic: false)
        XCTAssertEqual(try automaticCheckpoint(), 0, "the writer does not checkpoint while the run writes")
        for batch in 1...3 {
            // A few pages each, far below the 1000 at which SQLite would checkpoint.
            _ = try write(store, (0..<500).map { record("sku-\(batch)-\($0)", "n") })
            let deadline = Date().addingTimeInterval(10)
            var rows = try rowsInTheFile()
            while rows != "\(batch * 500)", Date() < deadline {
                usleep(5_000)
                rows = try rowsInTheFile()
            }
            XCTAssertEqual(rows, "\(batch * 500)", "batch \(batch) is in the store file")
        }
        try store.finishRun(commit: true)
        XCTAssertEqual(try automaticCheckpoint(), 1000)

        try store.beginRun(atomic: true)
        XCTAssertEqual(try automaticCheckpoint(), 1000, "an atomic run commits once, at its end")
        _ = try write(store, [record("sku-atomic", "n")])
        try store.finishRun(commit: true)
        store.close()
        XCTAssertEqual(try sqlite("SELECT count(*) FROM Product"), "1501")
    }

    /// The thread that checkpoints the WAL ends with the run, or with a store let go before
    /// its run finished.
    func testTheCheckpointingThreadEndsWithItsRunOrItsStore() throws {
        // This process's threads of that name, once their number is `expected` (or after 5 s).
        func checkpointers(becoming expected: Int) -> Int {
            let deadline = Date().addingTimeInterval(5)
            var count = 0
            repeat {
                count = ThreadNames.of()["wal checkpoints"] ?? 0
                if count != expected { usleep(1_000) }
            } while count != expected && Date() < deadline
            return count
        }
        let before = checkpointers(becoming: 0)
        do {
            let store = try SQLiteStore(path: path)
            try store.prepare(for: model)
            try store.beginRun(atomic: false)
            XCTAssertEqual(checkpointers(becoming: before + 1), before + 1)
            try store.finishRun(commit: true)
            XCTAssertEqual(checkpointers(becoming: before), before)
            try store.beginRun(atomic: false)
            _ = try write(store, [record("a", "one")])
            XCTAssertEqual(checkpointers(becoming: before + 1), before + 1)
        }  // let go without finishing the run or closing the store
        XCTAssertEqual(checkpointers(becoming: before), before)
        XCTAssertEqual(try sqlite("SELECT count(*) FROM Product"), "1")
    }

    func testAStoreOfAnotherVersionOrChecksumIsRefused() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        store.close()
        let v2 = try ModelLoader.parse(
            text:
                "model: Shop\nversion: 2\nentities:\n  Product:\n    hashKey: sku\n    versionAttribute: version\n    attributes: { sku: { type: string }, version: { type: int64 } }\n",
            file: "v2.yaml")
        XCTAssertThrowsError(try SQLiteStore(path: path).prepare(for: v2)) { error in
            XCTAssertEqual(
                (error as? StoreError)?.kind, .modelMismatch(recorded: model.identity, expected: v2.identity),
                "\(error)")
            XCTAssertTrue("\(error)".contains("holds Shop version 1, not version 2"), "\(error)")
        }
        let edited = try ModelLoader.parse(
            text:
                "model: Shop\nversion: 1\nentities:\n  Product:\n    hashKey: sku\n    versionAttribute: version\n    attributes: { sku: { type: string }, version: { type: int64 } }\n",
            file: "v1.yaml")
        XCTAssertThrowsError(try SQLiteStore(path: path).prepare(for: edited)) { error in
            XCTAssertEqual(
                (error as? StoreError)?.kind, .modelMismatch(recorded: model.identity, expected: edited.identity),
                "\(error)")
            XCTAssertTrue("\(error)".hasPrefix("v1.yaml: model Shop version 1 differs"), "\(error)")
        }
    }

    /// A record the database refuses (here: a trigger of another team) is rejected alone; the
    /// others of its batch are committed.
    func testARefusedRecordIsRejectedAloneAndTheRestCommitted() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        _ = try sqlite(
            "CREATE TRIGGER no_poison BEFORE INSERT ON Product WHEN NEW.name = 'poison' BEGIN SELECT RAISE(ABORT, 'poison is not allowed'); END;"
        )
        let outcomes = try write(store, [record("a", "ok"), record("b", "poison"), record("c", "ok")])
        XCTAssertEqual(outcomes, ["inserted", "rejected:constraint", "inserted"])
        XCTAssertEqual(try sqlite("SELECT group_concat(sku) FROM (SELECT sku FROM Product ORDER BY sku)"), "a,c")
    }

    func testATransactionRolledBackBySQLiteIsAStoreFailure() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        _ = try sqlite(
            "CREATE TRIGGER rollback_all BEFORE INSERT ON Product WHEN NEW.name = 'poison' BEGIN SELECT RAISE(ROLLBACK, 'no'); END;"
        )
        XCTAssertThrowsError(try write(store, [record("a", "ok"), record("b", "poison")])) { error in
            // The kind and SQLite's result code cross the boundary: SQLITE_CONSTRAINT_TRIGGER.
            let failure = error as? StoreError
            XCTAssertEqual(failure?.kind, .storage(resultCode: 1811), "\(error)")
            XCTAssertEqual(failure?.entity, "Product")
            XCTAssertEqual((failure?.underlying as? SQLiteError)?.primaryCode, 19)
            XCTAssertEqual(failure?.isDiskFull, false)
        }
        XCTAssertEqual(try sqlite("SELECT count(*) FROM Product"), "0")
    }
}

extension SQLiteStoreTests {
    /// A store failure names the statement and the record's values that SQLite refused.
    func testAStoreFailureNamesTheStatementButNotTheRecordsValues() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        _ = try sqlite(
            "CREATE TRIGGER rollback_all BEFORE INSERT ON Product WHEN NEW.name = 'poison' BEGIN SELECT RAISE(ROLLBACK, 'no'); END;"
        )
        XCTAssertThrowsError(try write(store, [record("b", "poison")])) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("while executing: INSERT INTO \"Product\""), message)
            XCTAssertFalse(message.contains("poison"), message)
            XCTAssertFalse(message.contains("12345678901234567.123456789"), message)
        }
    }
}
