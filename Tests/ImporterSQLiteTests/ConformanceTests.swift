import Foundation
import ImporterConformance
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// The store conformance table (every mode × versions × mergePolicy, and sync deletes) on
/// SQLite: one test method per scenario (ConformanceTests+Scenarios.swift).
final class ConformanceTests: XCTestCase {
    /// Runs the scenario the calling method is named after (`testInsertCheckError` runs
    /// `InsertCheckError`) on a new store.
    func check(_ method: String = #function) throws {
        let scenario = try XCTUnwrap(
            ConformanceRunner.scenario(forTest: method), "no conformance scenario for \(method)")
        let directory = NSTemporaryDirectory() + "conformance-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStore(path: "\(directory)/\(scenario.id).sqlite")
        defer { store.close() }
        let problems = try ConformanceRunner().run(scenario, on: store)
        XCTAssert(problems.isEmpty, "\(scenario.name):\n  " + problems.joined(separator: "\n  "))
    }

    func testEveryScenarioHasATestMethod() {
        XCTAssertEqual(ConformanceRunner.scenarios.count, 2 * 4 * 3 * 5 + 9)
        let methods = Self.scenarioTests.map(\.0)
        XCTAssertEqual(Set(methods).count, methods.count, "a method is listed twice")
        XCTAssertEqual(
            methods, ConformanceRunner.testMethodNames,
            "missing: \(Set(ConformanceRunner.testMethodNames).subtracting(methods).sorted())")
    }

    func testTypedItemsOnSQLite() throws {
        let directory = NSTemporaryDirectory() + "conformance-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStore(path: "\(directory)/typed.sqlite")
        defer { store.close() }
        XCTAssertEqual(try TypedItemsScenario.run(on: store), [])
    }
}
