import Foundation
import ImporterConformance
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// The store conformance table (every mode × versions × mergePolicy, and sync deletes) on SQLite.
final class ConformanceTests: XCTestCase {
    func testEveryScenarioOnSQLite() throws {
        let runner = try ConformanceRunner()
        let directory = NSTemporaryDirectory() + "conformance-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scenarios = ConformanceRunner.scenarios
        XCTAssertEqual(scenarios.count, 2 * 4 * 3 * 5 + 9)
        for (index, scenario) in scenarios.enumerated() {
            let store = try SQLiteStore(path: "\(directory)/\(index).sqlite")
            defer { store.close() }
            let problems = try runner.run(scenario, on: store)
            XCTAssert(problems.isEmpty, "\(scenario.name):\n  " + problems.joined(separator: "\n  "))
        }
    }

    func testTypedItemsOnSQLite() throws {
        let directory = NSTemporaryDirectory() + "conformance-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStore(path: "\(directory)/typed.sqlite")
        defer { store.close() }
        XCTAssertEqual(try TypedItemsScenario.run(on: store), [])
    }
}
