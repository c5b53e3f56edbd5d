import Foundation
import ImporterConformance
import ImporterCore
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// Library queries on DynamoDB: a Query when the filter gives the hash key, else a Scan, each
/// narrowed by a FilterExpression; the shared scenario checks them against the same queries
/// evaluated in memory over the same items.
final class DynamoDBQueryTests: MotoTestCase {
    func testQueriesAnswerAsTheInMemoryEvaluationAndAKeyEqualityReadsOnePartition() throws {
        let server = try server()
        let proxy = try FaultProxy(upstream: server.endpoint, rates: .init(), operations: ["Query"])
        defer { proxy.stop() }
        var options = DynamoDBStore.Options()
        options.tablePrefix = "query-"
        options.createTables = true
        let store = try DynamoDBStore(
            client: DynamoDBClient(
                AWSResolvedConfiguration(
                    credentials: server.credentials, region: "us-east-1", endpoint: proxy.endpoint)), options: options)
        let model = try SampleModel.model()
        try store.prepare(for: model)
        let entity = try XCTUnwrap(model.entity(named: "Location"))

        XCTAssertEqual(try QueryScenario.run(on: store, entity: entity), [])

        let queriesBefore = try proxy.stats().requests
        var found: [[Value]] = []
        let partition = try ItemQuery(.and([.equals("locationId", .string("l7")), .isNotNull("name")])).checked(
            for: entity)
        try store.items(matching: partition, of: entity) { found.append($0) }
        XCTAssertEqual(found.map { $0[entity.hashKeyIndex] }, [.string("l7")])
        XCTAssertEqual(
            try proxy.stats().requests - queriesBefore, 1, "the hash key's value read its partition with one Query")
    }
}
