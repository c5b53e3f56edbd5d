import Foundation
import ImporterCore
@testable import ImporterAWS
import ImporterDynamoDB
import TestSupport
import XCTest

/// DynamoDB's table-name rule is the DynamoDB store's: checked with the prefix, before any
/// request, naming the model file and the entity's line (docs/model.md). No server is needed: the
/// endpoint is a closed port, so only a check made before any request can give these errors.
final class TableNameTests: XCTestCase {
    func testATableNameDynamoDBWouldRefuseIsAConfigurationErrorBeforeAnyRequest() throws {
        let directory = NSTemporaryDirectory() + "table-names-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/model.yaml"
        try TestModels.twoLetterEntity.write(toFile: file, atomically: false, encoding: .utf8)
        let model = try ModelLoader.load(path: file).newest

        let closedPort = URL(string: "http://127.0.0.1:9")!
        let credentials = AWSCredentials(accessKeyId: "test", secretAccessKey: "test")
        func store(prefix: String) throws -> DynamoDBStore {
            var options = DynamoDBStore.Options()
            options.tablePrefix = prefix
            options.createTables = true
            let client = DynamoDBClient(
                AWSResolvedConfiguration(credentials: credentials, region: "us-east-1", endpoint: closedPort),
                retry: RetryPolicy(maxAttempts: 1, baseDelay: 0.01, maxDelay: 0.01))
            return try DynamoDBStore(client: client, options: options)
        }

        XCTAssertThrowsError(try store(prefix: "").prepare(for: model)) { error in
            guard let error = error as? ConfigurationError else {
                return XCTFail("not a configuration error: \(error)")
            }
            XCTAssertTrue(error.description.contains("\(file):5"), error.description)
            XCTAssertTrue(error.description.contains("DynamoDB would refuse the table name 'AB'"), error.description)
            XCTAssertTrue(error.description.contains("3 to 255 characters"), error.description)
        }
        XCTAssertThrowsError(try store(prefix: "shop ").prepareToRead(model)) { error in
            XCTAssertTrue("\(error)".contains("only letters, digits"), "\(error)")
        }
    }
}
