import CSQLite
import Foundation
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// The connection layer on a real SQLite file: checked results, errors with their context,
/// the scoped transaction helper.
final class DatabaseTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "database-\(UUID().uuidString)"

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    func database() throws -> Database {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let database = try Database(path: directory + "/test.sqlite")
        try database.execute("CREATE TABLE item (id TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL, size INTEGER)")
        return database
    }

    func names(_ database: Database) throws -> [String] {
        try database.strings("SELECT id FROM item ORDER BY id")
    }

    func testAConstraintViolationCarriesTheSQLTheArgumentsAndTheResultCode() throws {
        let database = try database()
        let insert = "INSERT INTO item (id, name, size) VALUES (?, ?, ?)"
        try database.execute(insert, [.string("a"), .string("first"), .integer(1)])
        XCTAssertThrowsError(try database.execute(insert, [.string("a"), .string("it's again"), .null])) { error in
            guard let error = error as? SQLiteError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY (a macro Swift does not import)
            XCTAssertEqual(error.primaryCode, SQLITE_CONSTRAINT)
            XCTAssertEqual(error.sql, insert)
            XCTAssertEqual(error.arguments, [.string("a"), .string("it's again"), .null])
            XCTAssertEqual(error.message, "UNIQUE constraint failed: item.id")
            XCTAssertFalse(error.isFatal)
            XCTAssertEqual(
                error.description,
                """
                SQLite error 1555 (constraint failed): UNIQUE constraint failed: item.id
                  while executing: INSERT INTO item (id, name, size) VALUES (?, ?, ?)
                """, "the values stay out of the description")
            XCTAssertEqual(SQLiteError.describe(error.arguments), "'a', 'it''s again', NULL")
        }
        XCTAssertEqual(try names(database), ["a"], "the refused row is not stored")
        // The cached statement was reset: it runs again.
        try database.execute(insert, [.string("b"), .string("second"), .integer(2)])
        XCTAssertEqual(try names(database), ["a", "b"])
    }

    func testABindOutOfRangeIsAnErrorWithTheStatementsSQL() throws {
        let database = try database()
        let statement = try database.prepare("SELECT name FROM item WHERE id = ?")
        XCTAssertThrowsError(try statement.bind(2, text: "x")) { error in
            guard let error = error as? SQLiteError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, SQLITE_RANGE)
            XCTAssertEqual(error.sql, "SELECT name FROM item WHERE id = ?")
        }
        XCTAssertThrowsError(try statement.execute([.string("a"), .integer(7)])) { error in
            guard let error = error as? SQLiteError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, SQLITE_RANGE)
            XCTAssertEqual(error.arguments, [.string("a"), .integer(7)])
            XCTAssertEqual(SQLiteError.describe(error.arguments), "'a', 7")
        }
    }

    func testLongArgumentsAndStatementsAreShortened() {
        let columns = (0..<60).map { "column\($0)" }.joined(separator: ", ")
        let error = SQLiteError(
            code: SQLITE_CONSTRAINT, message: "no", sql: "INSERT INTO t (\(columns)) VALUES (?)",
            arguments: [.string(String(repeating: "x", count: 100))] + (0..<40).map { .integer(Int64($0)) })
        let described = SQLiteError.describe(error.arguments)
        XCTAssertTrue(described.hasSuffix("… (9 more)"), described)
        XCTAssertTrue(described.contains("'" + String(repeating: "x", count: 60) + "…'"), described)
        let statement = error.description.components(separatedBy: "while executing: ")[1]
        XCTAssertEqual(statement.count, 201, statement)
        XCTAssertTrue(statement.hasSuffix("…"))
        XCTAssertFalse(error.description.contains("xxx"), error.description)
    }

    func testTheTransactionHelperCommitsRollsBackAndRollsBackOnAThrownError() throws {
        let database = try database()
        let insert = "INSERT INTO item (id, name) VALUES (?, 'n')"
        try database.inTransaction {
            try database.execute(insert, [.string("committed")])
            return .commit
        }
        try database.inTransaction(.deferred) {
            try database.execute(insert, [.string("rolled back")])
            return .rollback
        }
        struct Failure: Error {}
        XCTAssertThrowsError(
            try database.inTransaction {
                try database.execute(insert, [.string("thrown")])
                throw Failure()
            }
        ) { error in
            XCTAssertTrue(error is Failure, "the body's error is rethrown: \(error)")
        }
        // A statement's error inside the body rolls back the statements before it.
        XCTAssertThrowsError(
            try database.inTransaction {
                try database.execute(insert, [.string("before the error")])
                try database.execute(insert, [.string("committed")])
                return .commit
            }
        ) { error in
            XCTAssertEqual((error as? SQLiteError)?.primaryCode, SQLITE_CONSTRAINT)
        }
        XCTAssertTrue(database.isAutocommit, "no transaction is left open")
        XCTAssertEqual(try names(database), ["committed"])
    }

    func testATransactionInsideATransactionIsRefusedWithItsSQL() throws {
        let database = try database()
        try database.inTransaction {
            XCTAssertThrowsError(try database.inTransaction { .commit }) { error in
                XCTAssertEqual((error as? SQLiteError)?.sql, "BEGIN IMMEDIATE")
            }
            return .commit
        }
        XCTAssertTrue(database.isAutocommit)
    }

    func testAStatementIsPreparedOnceAndReused() throws {
        let database = try database()
        let sql = "SELECT count(*) FROM item"
        XCTAssertTrue(try database.cached(sql) === database.cached(sql))
        XCTAssertEqual(try database.integer(sql), 0)
        try database.execute("INSERT INTO item (id, name) VALUES (?, ?)", [.string("a"), .string("n")])
        XCTAssertEqual(try database.integer(sql), 1)
    }

    /// Values bound with their text in place (`BoundText`) are stored as bound by copy: rows
    /// that fill several blocks, a value longer than a block, empty and non-ASCII text, decimals,
    /// dates, numbers and nulls; the room is used again for the next rows, leaving stored ones.
    func testTextBoundInPlaceIsStoredAsTextBoundByCopy() throws {
        let database = try database()
        try database.execute("CREATE TABLE bound (row INTEGER, a TEXT, b TEXT, c TEXT, d TEXT)")
        try database.execute("CREATE TABLE copied (row INTEGER, a TEXT, b TEXT, c TEXT, d TEXT)")
        let inPlace = try database.prepare("INSERT INTO bound VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)")
        let text = BoundText()
        var generator = SystemRandomNumberGenerator()
        let pieces = ["", "a", "Łódź", "日本語", "x y", String(repeating: "z", count: 300)]
        func randomValue() -> Value {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0:
                .string((0..<Int.random(in: 0..<4, using: &generator)).map { _ in pieces.randomElement()! }.joined())
            case 1: .decimal("-\(Int.random(in: 0..<1_000_000, using: &generator)).25")
            case 2: .date(Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &generator))
            case 3: .string(String(repeating: "é", count: Int.random(in: 1..<BoundText.blockSize, using: &generator)))
            case 4: .null
            case 5: .double(Double.random(in: -1e9...1e9, using: &generator))
            case 6: .boolean(Bool.random(using: &generator))
            default: .integer(Int64.random(in: .min ... .max, using: &generator))
            }
        }
        // Two values longer than a block: bound by copy, as they do not fit.
        let rows: [[Value]] =
            (0..<400).map { row in [.integer(Int64(row))] + (0..<4).map { _ in randomValue() } }
            + [[.integer(400), .string(String(repeating: "q", count: 70_000)), .string(""), .null, .date(0)]]
            + [[.integer(401), .string("after"), .string(String(repeating: "w", count: 1 << 17)), .null, .null]]
        for pair in stride(from: 0, to: rows.count, by: 2) {
            text.removeAll()
            for (offset, row) in rows[pair..<pair + 2].enumerated() {
                for (column, value) in row.enumerated() {
                    try inPlace.bind(value, at: Int32(offset * 5 + column + 1), textIn: text)
                }
            }
            defer { inPlace.reset() }
            try inPlace.step()
            try database.execute(
                "INSERT INTO copied VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)", rows[pair] + rows[pair + 1])
        }
        let columns = "row, quote(a), quote(b), quote(c), quote(d)"
        let bound = try database.rows(
            "SELECT \(columns) FROM bound ORDER BY row", names: ["row", "a", "b", "c", "d"])
        let copied = try database.rows(
            "SELECT \(columns) FROM copied ORDER BY row", names: ["row", "a", "b", "c", "d"])
        XCTAssertEqual(bound.count, rows.count)
        XCTAssertEqual(bound.indices.filter { bound[$0] != copied[$0] }, [], "rows stored otherwise than bound by copy")
        XCTAssertEqual(bound[400]["d"], "'1970-01-01T00:00:00.000Z'")
        XCTAssertEqual(bound[401]["a"], "'after'")
    }
}
