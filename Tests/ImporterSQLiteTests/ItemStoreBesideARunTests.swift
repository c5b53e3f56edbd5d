import Foundation
import ImporterCore
import TestSupport
import XCTest
@testable import ImporterSQLite

/// The library writes beside a running `importer run` (docs/writes.md#one-writer-per-store):
/// the run holds the store's lock, which the library does not take; each library call is one
/// SQLite transaction that waits for the run's batch in flight, and both end up stored.
final class ItemStoreBesideARunTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    static let rows = 300_000

    func testLibraryWritesBesideARunAreStoredWithTheRunsRows() throws {
        for bulk in [false, true] {
            let folder = directory + "/bulk-\(bulk)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try LocationDumps.write(in: folder, rows: Self.rows)
            let pipeline = try LocationDumps.pipeline(in: folder, write: "{ batchSize: 10000, bulk: \(bulk) }")

            let run = ImporterProcess.start(["run", pipeline, "--quiet"])
            run.standardError = FileHandle.nullDevice
            try run.run()
            let store = folder + "/store.sqlite"
            let deadline = Date().addingTimeInterval(60)
            // Wait until the run writes Checkins: record by record, or staged by the bulk path.
            let written =
                bulk
                ? "SELECT count(*) FROM sqlite_master WHERE name LIKE '_importer_staged_%'"
                : "SELECT count(*) FROM Checkin"
            while Date() < deadline, run.isRunning, (Int((try? ImporterProcess.sqlite(store, written)) ?? "") ?? 0) == 0
            {
                usleep(10_000)
            }
            XCTAssertTrue(run.isRunning, "bulk \(bulk): the run ended before the library wrote")

            let model = try ModelLoader.load(path: LocationDumps.modelPath).newest
            let items = try ItemStore(store: SQLiteStore(path: store), model: model)
            let library = try items.items("Location")
            for index in 0..<20 {
                try library.insert(
                    Item([
                        "locationId": .string("lib-\(index)"), "name": .string("From the library"),
                        "latitude": .double(1), "longitude": .double(2),
                        "createdAt": .date(1_700_000_000_000),
                    ]))
            }
            items.close()
            run.waitUntilExit()
            XCTAssertEqual(run.terminationStatus, 0, "bulk \(bulk)")
            XCTAssertEqual(
                try ImporterProcess.sqlite(
                    store, "SELECT count(*) FROM \"AWS-Locations\" WHERE locationId LIKE 'lib-%'"), "20")
            XCTAssertEqual(try ImporterProcess.sqlite(store, "SELECT count(*) FROM Checkin"), String(Self.rows))
        }
    }
}
