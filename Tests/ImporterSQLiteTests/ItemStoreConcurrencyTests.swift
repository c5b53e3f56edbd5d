import Foundation
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// One store hammered by many tasks through the async calls: no update is lost, versions stay
/// exact, inserts from every task arrive.
final class ItemStoreConcurrencyTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "concurrency-\(UUID().uuidString)"

    struct Location: Codable, Sendable {
        var locationId: String
        var name: String
        var createdAt: Date
        var visits: Int32
        var version: Int64?
    }

    func testManyTasksOnOneStoreLoseNoUpdateAndKeepVersionsExact() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let modelPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        let store = try ItemStore(store: SQLiteStore(path: directory + "/shared.sqlite"), model: try ModelLoader.load(path: modelPath).newest)
        defer { store.close() }
        let locations = try store.items(Location.self)
        let shared = (0..<4).map { Location(locationId: "shared-\($0)", name: "Shared", createdAt: Date(), visits: 0, version: nil) }
        try await locations.insert(shared)

        let tasks = 8, incrementsPerTask = 25
        let conflicts = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var conflicts = 0
                    for increment in 0..<incrementsPerTask {
                        let key = Value.string("shared-\((task + increment) % shared.count)")
                        // Read, change, write at the version read; on a conflict read again. Each write
                        // differs from every other (its name), so none is taken for a replay of another
                        // (a write identical to the stored item is `unchanged`, whatever its version).
                        while true {
                            var location = try await locations.fetch(key)!
                            location.visits += 1
                            location.name = "Shared by t\(task)-\(increment)"
                            do {
                                try await locations.update(location)
                                break
                            } catch ItemError.conflict {
                                conflicts += 1
                            }
                        }
                        try await locations.insert(Location(locationId: "t\(task)-\(increment)", name: "Own", createdAt: Date(), visits: 0, version: nil))
                    }
                    return conflicts
                }
            }
            return try await group.reduce(0, +)
        }

        let stored = try await locations.fetch(ItemQuery(.isIn("locationId", shared.map { .string($0.locationId) })))
        XCTAssertEqual(stored.map(\.visits).reduce(0, +), Int32(tasks * incrementsPerTask), "every increment is stored once")
        for location in stored {
            XCTAssertEqual(location.version, 1 + Int64(location.visits), "\(location.locationId): one version per update")
        }
        let total = try await locations.count()
        XCTAssertEqual(total, shared.count + tasks * incrementsPerTask, "every task's inserts arrived")
        print("concurrent updates: \(tasks * incrementsPerTask), conflicts retried: \(conflicts)")
    }
}
