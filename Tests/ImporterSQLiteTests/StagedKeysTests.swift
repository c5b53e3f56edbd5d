import Foundation
import ImporterCore
import TestSupport
import XCTest
@testable import ImporterSQLite

/// The keys a bulk load keeps while it stages come out in the order of SQLite's index, each with
/// its row, and the index written from them is the one SQLite builds.
final class StagedKeysTests: XCTestCase {
    /// Distinct keys made to be hard to order: shared heads of 8 to 40 bytes, keys that begin
    /// others (with a NUL after, which only the lengths tell apart), keys past the 32 bytes held
    /// in an entry, text of two- and three-byte characters, and the empty key.
    func awkwardKeys(_ count: Int) -> [String] {
        var generator = SplitMix(seed: 20_261_129)
        let alphabet: [Character] = ["a", "b", "\u{0}", "z", "é"]
        let heads = ["", "UA-1234-", "UA-1234-EWR-2013-01-16T18:00:00Z-", "é", "e\u{301}", "ü€"]
        var keys = Set<String>([
            "", "a", "a\u{0}", "a\u{0}\u{0}", String(repeating: "x", count: 32),
            String(repeating: "x", count: 33), String(repeating: "x", count: 31),
        ])
        while keys.count < count {
            let head = heads[Int(generator.next() % UInt64(heads.count))]
            let tail = (0..<Int(generator.next() % 40)).map { _ in alphabet[Int(generator.next() % 5)] }
            keys.insert(head + String(tail))
        }
        return Array(keys).shuffled(using: &generator)
    }

    func inKeyOrder(_ keys: StagedKeys) throws -> [(key: [UInt8], rowid: Int)]? {
        var ordered: [(key: [UInt8], rowid: Int)] = []
        let unique = try keys.inKeyOrder { entries, long in
            for entry in entries.indices.map({ entries.baseAddress! + $0 }) {
                ordered.append((Array(StagedKeys.key(at: entry, long)), Int(entry.pointee.rowid)))
            }
        }
        return unique ? ordered : nil
    }

    func testKeysComeInTheOrderOfSQLitesIndexWithTheirRows() throws {
        // Few keys are sorted in one part; many are cut into ranges sorted on another thread.
        for count in [300, 40_000] {
            let input = awkwardKeys(count)
            let keys = StagedKeys(blockShift: 10)  // blocks of 1,024 keys
            for key in input { XCTAssertTrue(keys.append(key)) }
            XCTAssertEqual(keys.count, count)
            let ordered = try XCTUnwrap(try inKeyOrder(keys), "no two keys are equal")

            let database = try Database(path: "")
            try database.execute("CREATE TABLE t (k TEXT)")
            let insert = try database.prepare("INSERT INTO t (k) VALUES (?)")
            for key in input { try insert.execute([.string(key)]) }
            var expected: [(key: [UInt8], rowid: Int)] = []
            try database.prepare("SELECT k, rowid FROM t ORDER BY k").query {
                expected.append((Array(($0.text(0) ?? "").utf8), Int($0.int64(1))))
            }
            XCTAssertEqual(ordered.map(\.key), expected.map(\.key), "\(count) keys in SQLite's order, by their bytes")
            XCTAssertEqual(ordered.map(\.rowid), expected.map(\.rowid), "each with its row")
            XCTAssertEqual(ordered.map { input[$0.rowid - 1] }.map { Array($0.utf8) }, ordered.map(\.key))
        }
    }

    func testEqualKeysAreFound() throws {
        for count in [300, 40_000] {
            var input = awkwardKeys(count)
            input.append(input[count / 2])
            let keys = StagedKeys()
            for key in input { XCTAssertTrue(keys.append(key)) }
            XCTAssertNil(try inKeyOrder(keys), "\(count) keys and one twice")
        }
    }

    func testKeysStagedAfterTheLastCommitAreForgottenOnRollback() throws {
        let keys = StagedKeys(blockShift: 1)  // blocks of two keys
        let long = String(repeating: "long-", count: 10)
        for key in ["b", long + "1", "a"] { XCTAssertTrue(keys.append(key)) }
        keys.commit()
        for key in ["c", long + "2", "d"] { XCTAssertTrue(keys.append(key)) }
        keys.rollBack()
        XCTAssertEqual(keys.count, 3)
        XCTAssertEqual(keys.long.count, long.utf8.count + 1, "the long key staged after the commit is gone")
        XCTAssertTrue(keys.append(long + "3"))
        let ordered = try XCTUnwrap(try inKeyOrder(keys))
        XCTAssertEqual(ordered.map { String(decoding: $0.key, as: UTF8.self) }, ["a", "b", long + "1", long + "3"])
        XCTAssertEqual(ordered.map(\.rowid), [3, 1, 2, 4], "the key after the rollback is row 4's")
    }

    func testTheIndexWrittenFromTheKeysIsTheOneSQLiteBuilds() throws {
        let input = awkwardKeys(20_000)
        let directory = NSTemporaryDirectory() + "staged-keys-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try Database(path: directory + "/store.sqlite")
        try database.execute("CREATE TABLE staged (k TEXT, v INTEGER)")
        let insert = try database.prepare("INSERT INTO staged (k, v) VALUES (?, ?)")
        let keys = StagedKeys()
        try database.execute("BEGIN")
        for (number, key) in input.enumerated() {
            try insert.execute([.string(key), .integer(Int64(number))])
            XCTAssertTrue(keys.append(key))
        }
        XCTAssertTrue(try KeyIndexWriter.write(keys, as: "written", in: database))
        try database.execute("COMMIT")
        try database.execute("CREATE UNIQUE INDEX built ON staged (k)")
        XCTAssertEqual(
            try database.rows("SELECT key, row FROM written", names: ["k", "rowid"]),
            try database.rows("SELECT k, rowid FROM staged INDEXED BY built ORDER BY k", names: ["k", "rowid"]))
        XCTAssertEqual(try database.strings("PRAGMA integrity_check"), ["ok"])

        let twice = StagedKeys()
        for key in ["a", "b", "a"] { XCTAssertTrue(twice.append(key)) }
        XCTAssertFalse(try KeyIndexWriter.write(twice, as: "twice", in: database), "equal keys: not written")
        XCTAssertEqual(try database.integer("SELECT count(*) FROM sqlite_master WHERE name = 'twice'"), 0)
    }

    /// Rows staged in the store keep their keys when the key is one text attribute and the
    /// staged table began empty in this process; rows rolled back take theirs away.
    func testRowsStagedInTheStoreKeepTheirTextKeys() throws {
        let model = try ModelLoader.parse(
            text: """
                model: Shop
                version: 1
                entities:
                  Text:   { hashKey: id, versionAttribute: version, attributes: { id: { type: string }, version: { type: int64 } } }
                  Number: { hashKey: id, versionAttribute: version, attributes: { id: { type: int64 }, version: { type: int64 } } }
                  Pair:
                    hashKey: id
                    rangeKey: at
                    versionAttribute: version
                    attributes: { id: { type: string }, at: { type: string }, version: { type: int64 } }
                """, file: "model.yaml")
        let text = try XCTUnwrap(model.entity(named: "Text")), number = try XCTUnwrap(model.entity(named: "Number"))
        let pair = try XCTUnwrap(model.entity(named: "Pair"))
        let database = try Database(path: "")
        let staging = StagedRows(inStore: database, path: "store.sqlite")
        for entity in [text, number, pair] { try staging.stage(entity, keeping: nil) }
        try staging.append((0..<5).map { ([.string("k\($0)"), .null], 1) }, of: text)
        try staging.append((0..<5).map { ([.integer(Int64($0)), .null], 1) }, of: number)
        try staging.append((0..<5).map { ([.string("k"), .string("\($0)"), .null], 1) }, of: pair)
        try staging.commit()
        try staging.append([([.string("k5"), .null], 1)], of: text)
        staging.rollBack()
        XCTAssertEqual(try XCTUnwrap(staging.takeKeys(of: text)).count, 5, "the rolled-back row's key is gone")
        XCTAssertNil(staging.takeKeys(of: text), "taken once")
        XCTAssertNil(staging.takeKeys(of: number), "an integer key is not kept")
        XCTAssertNil(staging.takeKeys(of: pair), "nor a hash and range key")

        // Resumed: rows 1…3 were staged by the interrupted run, so their keys are not known.
        try staging.stage(text, keeping: 3)
        try staging.append([([.string("k9"), .null], 1)], of: text)
        XCTAssertNil(staging.takeKeys(of: text))
    }
}

extension StagedKeys {
    func append(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }
}
