import Foundation
import ImporterConformance
import ImporterCore
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// The store conformance table (every mode × versions × mergePolicy, and sync deletes) on
/// DynamoDB: the same scenarios as SQLite, against moto with authentication on, one test
/// method per scenario (DynamoDBConformanceTests+Scenarios.swift).
final class DynamoDBConformanceTests: MotoTestCase {
    /// Runs the scenario the calling method is named after (`testInsertCheckError` runs
    /// `InsertCheckError`) on tables of its own.
    func check(_ method: String = #function) throws {
        let scenario = try XCTUnwrap(
            ConformanceRunner.scenario(forTest: method), "no conformance scenario for \(method)")
        var options = DynamoDBStore.Options()
        options.tablePrefix = "conformance-\(scenario.id)-"
        options.createTables = true
        let store = try DynamoDBStore(client: try client(), options: options)
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
}
