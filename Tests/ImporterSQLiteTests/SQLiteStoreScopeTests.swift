import Foundation
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// Scopes that span several calls of the store, its connection's lock taken to begin and to
/// end them, not across their body: the library's transaction (`withTransaction`) and an
/// export's read snapshot (`readingSnapshot`), whose bodies call the store again.
final class SQLiteStoreScopeTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "store-scope-\(UUID().uuidString)"
    var path: String { directory + "/store.sqlite" }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    let model = try! ModelLoader.parse(text: SkuModel.text, file: "shop.yaml")

    var entity: Entity { model.entities[0] }

    private func store() throws -> SQLiteStore {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        return store
    }

    private func write(_ store: SQLiteStore, _ skus: String...) throws {
        let records = skus.map {
            PreparedRecord(inputIndex: 0, line: 1, byteOffset: 0, raw: [], values: [.string($0), .null])
        }
        _ = try store.write(records, of: entity, rules: VersionRules(entity: entity, write: WriteConfig()))
    }

    private struct Refused: Error {}

    /// `body` in a library transaction: committed when it returns, rolled back when it throws.
    private func inTransaction(_ store: SQLiteStore, _ body: () throws -> Void) async throws {
        try await store.beginItemTransaction()
        do {
            try body()
        } catch {
            try await store.endItemTransaction(commit: false)
            throw error
        }
        try await store.endItemTransaction(commit: true)
    }

    func testATransactionCommitsWhenItsBodyReturnsAndRollsBackWhenItThrows() async throws {
        let store = try store()
        defer { store.close() }
        try await inTransaction(store) {
            try write(store, "a", "b")
            try store.commit()  // a batch's commit inside the transaction commits nothing
            XCTAssertEqual(try store.count(of: entity), 2, "the transaction reads its own writes")
            XCTAssertEqual(try store.withReader { try $0.count(of: entity) }, 0, "a reader sees none of it yet")
        }
        XCTAssertEqual(try store.withReader { try $0.count(of: entity) }, 2)
        do {
            try await inTransaction(store) {
                try write(store, "c")
                throw Refused()
            }
            XCTFail("the body's error was not rethrown")
        } catch { XCTAssertTrue(error is Refused) }
        XCTAssertEqual(try store.count(of: entity), 2, "nothing of the failed transaction is stored")
    }

    func testAReadSnapshotsBodyCallsTheStore() throws {
        let store = try store()
        defer { store.close() }
        try write(store, "a", "b")
        try store.commit()
        let keys = try store.readingSnapshot { () -> [String] in
            var keys: [String] = []
            try store.scanRows(entity) { row in keys.append(row.withText(0) { String(decoding: $0, as: UTF8.self) }) }
            XCTAssertEqual(try store.count(of: entity), keys.count)
            return keys
        }
        XCTAssertEqual(keys.sorted(), ["a", "b"])
        try write(store, "c")  // the snapshot ended: the connection writes again
        try store.commit()
        XCTAssertEqual(try store.count(of: entity), 3)
    }
}
