import Foundation
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// Tables larger than the content index's limit are decided through a window that follows the
/// records through the table; whatever the window misses or holds stale must still be written.
extension SQLiteStoreTests {
    private func writeInParts(_ store: SQLiteStore, _ records: [PreparedRecord]) throws -> [String] {
        var outcomes: [String] = []
        for start in stride(from: 0, to: records.count, by: 4096) {
            outcomes += try write(store, Array(records[start..<min(start + 4096, records.count)]))
        }
        try store.finishRun(commit: true)
        return outcomes
    }

    func testAContentWindowDecidesReRunsOfLargeTablesAndFollowsEveryChange() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        store.contentWindowThreshold = 1000
        let count = 100_000
        let all = (0..<count).map { record(String(format: "sku-%06d", $0), "n") }
        XCTAssertEqual(Set(try writeInParts(store, all)), ["inserted"])

        // A re-run in the table's order: the window reads the table once, just ahead.
        XCTAssertEqual(Set(try writeInParts(store, all)), ["unchanged"])
        XCTAssertNil(store.contentWindowRows(entity), "a window lasts one run")
        var rerun = all
        rerun[50_000] = record("sku-050000", "changed")
        rerun[90_000] = record("sku-090000", "changed")
        var outcomes: [String] = []
        for start in stride(from: 0, to: count, by: 4096) {
            outcomes += try write(store, Array(rerun[start..<min(start + 4096, count)]))
            if start == 8192 {
                XCTAssertNil(store.contentIndexSize(entity), "the window comes first")
                // Within the run, items the window holds change: by this run and by a delete.
                XCTAssertEqual(try write(store, [record("sku-020000", "early")]), ["updated"])
                XCTAssertTrue(try store.delete(.string("sku-030000"), expectedVersion: 1, of: entity))
                try store.commit()
            }
        }
        XCTAssertGreaterThan(store.contentWindowRows(entity) ?? 0, count * 9 / 10, "the window followed the records")
        try store.finishRun(commit: true)
        XCTAssertEqual(outcomes.filter { $0 != "unchanged" }, ["updated", "inserted", "updated", "updated"])
        XCTAssertEqual(outcomes[20_000], "updated", "the early change is not mistaken for the stored content")
        XCTAssertEqual(outcomes[30_000], "inserted")

        // Another connection's commit in the middle of a run is not missed.
        var seen: [String] = []
        for start in stride(from: 0, to: count, by: 4096) {
            if start == 40_960 {
                XCTAssertEqual(
                    try sqlite("UPDATE Product SET name = 'outside' WHERE sku = 'sku-060000'; SELECT changes()"), "1")
            }
            seen += try write(store, Array(all[start..<min(start + 4096, count)]))
        }
        try store.finishRun(commit: true)
        XCTAssertEqual(seen.indices.filter { seen[$0] != "unchanged" }, [50_000, 60_000, 90_000])

        // An order unlike the table's: the window gives way to an index of the whole table.
        var reversed = Array(all.reversed())
        reversed[10] = record(reversed[10].values[0].description, "changed")
        reversed[90_000] = record(reversed[90_000].values[0].description, "changed")
        var backwards: [String] = []
        for start in stride(from: 0, to: count, by: 4096) {
            backwards += try write(store, Array(reversed[start..<min(start + 4096, count)]))
        }
        XCTAssertNil(store.contentWindowRows(entity))
        XCTAssertEqual(store.contentIndexSize(entity)?.items, count)
        try store.finishRun(commit: true)
        XCTAssertEqual(backwards.indices.filter { backwards[$0] != "unchanged" }, [10, 90_000])
        store.close()
        XCTAssertEqual(try sqlite("SELECT count(*), sum(name = 'n'), sum(version) FROM Product"), "100000|99998|100009")
    }

    /// Records in the table's order find every key in the window, which reads the table once;
    /// records in another order do not make it race through the table after the keys it
    /// happens to hold.
    func testAContentWindowFollowsRecordsInOrderAndDoesNotRaceAfterOthers() throws {
        let store = try SQLiteStore(path: path)
        try store.prepare(for: model)
        let count = 100_000
        let all = (0..<count).map { record(String(format: "sku-%06d", $0), "n") }
        for start in stride(from: 0, to: count, by: 10_000) { _ = try write(store, Array(all[start..<start + 10_000])) }
        store.close()

        var images = ColumnImages()
        let keys = all.map { images.key($0.values[0]) }
        let database = try Database(path: path, readOnly: true)
        let inOrder = try StoredContentWindow(entity, on: database, startingAt: .string("sku-000000"))
        XCTAssertEqual(try keys.filter { try inOrder.content(of: $0) != nil }.count, count)
        XCTAssertEqual(inOrder.rowsRead, count)

        let shuffled = try StoredContentWindow(entity, on: database, startingAt: .string("sku-000000"))
        var generator = SystemRandomNumberGenerator()
        let lookups = 2048
        for key in keys.shuffled(using: &generator).prefix(lookups) { _ = try shuffled.content(of: key) }
        // At most two rows a lookup past its first chunk, and one chunk more: 36,864 of 100,000.
        XCTAssertLessThanOrEqual(shuffled.rowsRead, 2 * lookups + 2 * StoredContentWindow.chunkRows)
    }
}
