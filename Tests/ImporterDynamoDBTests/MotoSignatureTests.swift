import Foundation
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// SigV4Signer against a real DynamoDB-protocol server (moto, authentication enforced): a correctly signed
/// request is served, a wrongly signed one refused. One server for the whole class.
final class MotoSignatureTests: XCTestCase {
    nonisolated(unsafe) private static var started: Result<MotoServer, Error>?

    override class func setUp() {
        super.setUp()
        started = Result { try MotoServer.start() }
    }

    override class func tearDown() {
        if case let .success(server)? = started { server.stop() }
        started = nil
        super.tearDown()
    }

    /// The class's server, or the start-up error (with moto's log) as this test's failure.
    private func server() throws -> MotoServer {
        guard let started = Self.started else { throw MotoServerError.setup("class setUp did not run") }
        return try started.get()
    }

    /// DynamoDB's JSON protocol: POST / with the operation in `X-Amz-Target`.
    private func listTables(on server: MotoServer, credentials: AWSCredentials) throws -> HTTPTestClient.Response {
        let signer = SigV4Signer(credentials: credentials, region: "us-east-1", service: "dynamodb")
        let response = try HTTPTestClient.signedPOST(
            server.endpoint,
            headers: [
                (name: "Content-Type", value: "application/x-amz-json-1.0"),
                (name: "X-Amz-Target", value: "DynamoDB_20120810.ListTables"),
            ],
            body: Array("{}".utf8), signer: signer)
        print(
            "moto answered HTTP \(response.status), x-amzn-errortype: \(response.header("x-amzn-errortype") ?? "-"), "
                + "body: \(response.text)")
        return response
    }

    func testCorrectlySignedListTablesIsServed() throws {
        let server = try server()
        let response = try listTables(on: server, credentials: server.credentials)
        XCTAssertEqual(response.status, 200, response.text)
        let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        XCTAssertNotNil(json?["TableNames"] as? [Any], response.text)
    }

    func testWrongSecretIsRefusedAsASignatureMismatch() throws {
        let server = try server()
        var wrong = server.credentials
        wrong.secretAccessKey = String(wrong.secretAccessKey.reversed())
        let response = try listTables(on: server, credentials: wrong)
        // moto 5.2.1 answers 403 with an XML <ErrorResponse> whose <Code> is SignatureDoesNotMatch
        // (core/exceptions.py, SignatureDoesNotMatchError) and no x-amzn-errortype header; accept either place.
        XCTAssertEqual(response.status, 403, response.text)
        let errorType = response.header("x-amzn-errortype") ?? ""
        XCTAssertTrue(
            response.text.contains("SignatureDoesNotMatch") || errorType.contains("SignatureDoesNotMatch"),
            "HTTP \(response.status), x-amzn-errortype \(errorType): \(response.text)")
    }

    func testUnknownAccessKeyIsRefused() throws {
        let server = try server()
        let stranger = AWSCredentials(
            accessKeyId: "AKIAUNKNOWNKEY000000", secretAccessKey: server.credentials.secretAccessKey)
        let response = try listTables(on: server, credentials: stranger)
        // moto: the key is not in its IAM backend → InvalidClientTokenId, 403 (iam/access_control.py).
        XCTAssertEqual(response.status, 403, response.text)
        XCTAssertTrue(response.text.contains("InvalidClientTokenId"), response.text)
    }
}
