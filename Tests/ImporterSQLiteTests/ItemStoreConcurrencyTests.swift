import Foundation
@testable import ImporterCore
import Synchronization
import XCTest
@testable import ImporterSQLite

/// One store hammered by many tasks through the async calls: no update is lost, versions stay
/// exact, inserts from every task arrive. Reads run beside an open write.
final class ItemStoreConcurrencyTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "concurrency-\(UUID().uuidString)"

    struct Location: Codable, Sendable {
        var locationId: String
        var name: String
        var createdAt: Date
        var visits: Int32
        var version: Int64?
    }

    private func model() throws -> Model {
        let modelPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        return try ModelLoader.load(path: modelPath).newest
    }

    /// While one call's transaction is open (it holds the writing connection), reads from four
    /// other threads answer at once, each on a connection of its own, with the last commit.
    func testReadsRunBesideAnOpenWriteAndSeeTheLastCommit() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try ItemStore(store: SQLiteStore(path: directory + "/readers.sqlite"), model: try model())
        defer { store.close() }
        let locations = try store.items(Location.self)
        try locations.insert(Location(locationId: "kept", name: "Kept", createdAt: Date(), visits: 0, version: nil))

        let readers = 4
        let seen = Mutex<[String]>([])
        let done = DispatchGroup()
        var readersFinishedDuringTheWrite = false
        try store.transaction { tx in
            try tx.items(Location.self).delete(.string("kept"))
            XCTAssertEqual(try tx.items(Location.self).count(), 0, "deleted in the open transaction")
            for _ in 0..<readers {
                DispatchQueue.global().async(group: done) {
                    let found = (try? locations.fetch(.string("kept")))??.name ?? "nothing"
                    let count = (try? locations.count()) ?? -1
                    seen.withLock { $0.append("\(found) of \(count)") }
                }
            }
            readersFinishedDuringTheWrite = done.wait(timeout: .now() + 10) == .success
        }
        XCTAssertTrue(readersFinishedDuringTheWrite, "the reads waited for the write to end")
        done.wait()
        XCTAssertEqual(
            seen.withLock { $0 }, Array(repeating: "Kept of 1", count: readers),
            "each read saw the last commit, not the delete in progress")
        XCTAssertNil(try locations.fetch(.string("kept")), "after the commit, reads see the delete")
        XCTAssertEqual(try locations.count(), 0)
    }

    /// Two readers of version 1 write the same new values: the first is stored (version 2), the
    /// second is a conflict, though its content equals what is stored now.
    func testTheSecondOfTwoIdenticalUpdatesOfOneVersionIsAConflict() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try ItemStore(store: SQLiteStore(path: directory + "/same.sqlite"), model: try model())
        defer { store.close() }
        let locations = try store.items(Location.self)
        try locations.insert(
            Location(locationId: "a", name: "A", createdAt: Date(timeIntervalSince1970: 0), visits: 5, version: nil))
        var first = try XCTUnwrap(try locations.fetch(.string("a")))
        var second = first
        first.visits += 1
        second.visits += 1
        XCTAssertEqual(try locations.update(first).version, 2)
        XCTAssertThrowsError(try locations.update(second)) { error in
            guard case ItemError.conflict(_, _, let stored, let incoming) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(stored, 2)
            XCTAssertEqual(incoming, 1)
        }
        XCTAssertEqual(try locations.fetch(.string("a"))?.visits, 6)
    }

    /// Eight stores' awaited inserts wait for another connection's write lock (SQLite's busy
    /// wait) on threads of their own, not on Swift concurrency's pool (as wide as the cores):
    /// other tasks go on meanwhile, and every insert is stored once the lock is let go.
    func testAwaitedWritesWaitingForTheFileLockHoldNoThreadOfThePool() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/locked.sqlite"
        let model = try model()
        var stores: [ItemStore] = []
        for _ in 0..<8 { stores.append(try await ItemStore.open(store: SQLiteStore(path: path), model: model)) }
        defer { stores.forEach { $0.close() } }
        let lock = try HeldWriteLock(path: path)
        let fallback = Task {
            try? await Task.sleep(for: .seconds(5))
            lock.release()
        }
        let inserts = stores.enumerated().map { index, store in
            Task {
                try await store.items(Location.self).insert(
                    Location(locationId: "w\(index)", name: "Waiting", createdAt: Date(), visits: 0, version: nil))
            }
        }
        let started = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(300))  // the inserts reach SQLite's lock
        let others = await withTaskGroup(of: Int.self) { group in
            for number in 1...64 { group.addTask { number } }
            return await group.reduce(0, +)
        }
        let waited = ContinuousClock.now - started
        lock.release()
        fallback.cancel()
        XCTAssertEqual(others, 64 * 65 / 2)
        XCTAssertLessThan(
            waited, .seconds(2), "other tasks waited for the lock: the inserts held the pool's threads")
        for insert in inserts { _ = try await insert.value }
        let stored = try await stores[0].items(Location.self).count()
        XCTAssertEqual(stored, 8)
    }

    func testManyTasksOnOneStoreLoseNoUpdateAndKeepVersionsExact() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await ItemStore.open(store: SQLiteStore(path: directory + "/shared.sqlite"), model: try model())
        defer { store.close() }
        let locations = try store.items(Location.self)
        let shared = (0..<4).map {
            Location(locationId: "shared-\($0)", name: "Shared", createdAt: Date(), visits: 0, version: nil)
        }
        try await locations.insert(shared)

        let tasks = 8, incrementsPerTask = 25
        let conflicts = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var conflicts = 0
                    for increment in 0..<incrementsPerTask {
                        let key = Value.string("shared-\((task + increment) % shared.count)")
                        // Read, add one, write at the version read; on a conflict read again. Two tasks
                        // that read the same version write the same values: the second is a conflict
                        // all the same, never taken for a replay.
                        while true {
                            var location = try await locations.fetch(key)!
                            location.visits += 1
                            do {
                                try await locations.update(location)
                                break
                            } catch ItemError.conflict {
                                conflicts += 1
                            }
                        }
                        try await locations.insert(
                            Location(
                                locationId: "t\(task)-\(increment)", name: "Own", createdAt: Date(), visits: 0,
                                version: nil))
                    }
                    return conflicts
                }
            }
            return try await group.reduce(0, +)
        }

        let stored = try await locations.fetch(ItemQuery(.isIn("locationId", shared.map { .string($0.locationId) })))
        XCTAssertEqual(
            stored.map(\.visits).reduce(0, +), Int32(tasks * incrementsPerTask), "every increment is stored once")
        for location in stored {
            XCTAssertEqual(
                location.version, 1 + Int64(location.visits), "\(location.locationId): one version per update")
        }
        let total = try await locations.count()
        XCTAssertEqual(total, shared.count + tasks * incrementsPerTask, "every task's inserts arrived")
        print("concurrent updates: \(tasks * incrementsPerTask), conflicts retried: \(conflicts)")
    }
}

/// Another connection's write lock on a store file (`BEGIN IMMEDIATE`), held until `release()`.
private final class HeldWriteLock: Sendable {
    private let database: Mutex<Database?>

    init(path: String) throws {
        let database = try Database(path: path)
        try database.begin(.immediate)
        self.database = Mutex(database)
    }

    func release() {
        database.withLock { held in
            try? held?.commit()
            held = nil
        }
    }
}
