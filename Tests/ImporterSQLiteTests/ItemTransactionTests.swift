import Foundation
import ImporterConformance
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// `ItemStore.transaction` on SQLite: the transaction scenario, and a reader on another
/// connection that sees nothing of a transaction until it commits.
final class ItemTransactionTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "transaction-\(UUID().uuidString)"

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    func testTheTransactionScenarioConforms() throws {
        let store = try SQLiteStore(path: directory + "/tx.sqlite")
        defer { store.close() }
        XCTAssertEqual(try TransactionScenario.run(on: store), [])
    }

    func testTheAwaitedTransactionScenarioConforms() async throws {
        let store = try SQLiteStore(path: directory + "/async.sqlite")
        defer { store.close() }
        let problems = try await TransactionScenario.runAsync(on: store)
        XCTAssertEqual(problems, [])
    }

    func testAnotherConnectionSeesNothingOfATransactionUntilItCommits() throws {
        let model = try ConformanceModel.load()
        let mine = try ItemStore(store: SQLiteStore(path: directory + "/seen.sqlite"), model: model)
        defer { mine.close() }
        let other = try ItemStore(store: SQLiteStore(path: directory + "/seen.sqlite"), model: model)
        defer { other.close() }
        var seenInside: [Int] = []
        try mine.transaction { tx in
            try tx.items("Owner").insert(Item(["id": .string("o")]))
            try tx.items("Pet").insert(Item(["id": .string("p"), "ownerId": .string("o")]))
            seenInside = [try tx.items("Pet").count(), try other.items("Pet").count(), try mine.items("Pet").count()]
        }
        XCTAssertEqual(seenInside, [1, 0, 0], "the transaction, another store, the store's own readers")
        XCTAssertEqual(try other.items("Pet").count(), 1)
    }
}
