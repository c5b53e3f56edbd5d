import Foundation
import ImporterConformance
import ImporterCore
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// The store conformance table (every mode × versions × mergePolicy, and sync deletes) on
/// DynamoDB: the same scenarios as SQLite, against moto with authentication on.
final class DynamoDBConformanceTests: MotoTestCase {
    func testEveryScenarioOnDynamoDB() throws {
        let runner = try ConformanceRunner()
        let client = try client()
        let scenarios = ConformanceRunner.scenarios
        XCTAssertEqual(scenarios.count, 2 * 4 * 3 * 5 + 9)
        for (index, scenario) in scenarios.enumerated() {
            var options = DynamoDBStore.Options()
            options.tablePrefix = "conformance\(index)-"
            options.createTables = true
            let store = try DynamoDBStore(client: client, options: options)
            let problems = try runner.run(scenario, on: store)
            XCTAssert(problems.isEmpty, "\(scenario.name):\n  " + problems.joined(separator: "\n  "))
        }
    }
}
