import Foundation
@testable import ImporterAWS
import ImporterDynamoDB
import XCTest

/// A test class with its own moto server (authentication on), started once for the class and
/// stopped by PID afterwards; `server()` gives it, or the start-up error as the test's failure.
class MotoTestCase: XCTestCase {
    nonisolated(unsafe) private static var servers: [ObjectIdentifier: Result<MotoServer, Error>] = [:]

    override class func setUp() {
        super.setUp()
        servers[ObjectIdentifier(self)] = Result { try MotoServer.start() }
    }

    override class func tearDown() {
        if case let .success(server)? = servers.removeValue(forKey: ObjectIdentifier(self)) { server.stop() }
        super.tearDown()
    }

    func server() throws -> MotoServer {
        guard let started = Self.servers[ObjectIdentifier(type(of: self))] else {
            throw MotoServerError.setup("class setUp did not run")
        }
        return try started.get()
    }

    /// A client of the class's server, signing with its credentials.
    func client(retry: RetryPolicy = RetryPolicy(maxAttempts: 4, baseDelay: 0.01, maxDelay: 0.2)) throws
        -> DynamoDBClient
    {
        let server = try server()
        return DynamoDBClient(
            AWSResolvedConfiguration(credentials: server.credentials, region: "us-east-1", endpoint: server.endpoint),
            retry: retry)
    }
}
