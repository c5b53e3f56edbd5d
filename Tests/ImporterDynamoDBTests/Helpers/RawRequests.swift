import BlockingBridge
import Foundation
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// A request body from Foundation values, for tests that look at the tables directly.
func json(_ object: [String: Any]) -> Data {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
}

extension DynamoDBClient {
    /// Sends `operation` with a raw JSON body (retries included) and waits: the response as
    /// Foundation values, so a test reads exactly what the server stored.
    func sendJSON(_ operation: String, _ body: Data) throws -> [String: Any] {
        let data = try runBlocking { try await self.send(operation, body) }
        return (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}
