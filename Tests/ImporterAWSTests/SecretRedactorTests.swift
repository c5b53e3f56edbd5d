import Foundation
import XCTest
@testable import ImporterAWS

/// The rules of `SecretRedactor` (docs/dynamodb.md, "Secrets in messages"), on texts a server
/// may send back.
final class SecretRedactorTests: XCTestCase {
    let credentials = AWSCredentials(
        accessKeyId: "AKIAREDACTIONTEST123", secretAccessKey: "s3cr3t/Key+Value=0123456789",
        sessionToken: "FwoGZXIvYXdzToken/with+slash=")
    let endpoint = URL(string: "http://admin:hunter22@proxy.example:8080/?apikey=topsecretvalue&x=1")!

    func testValuesAreRedactedAsTheyAreJSONEscapedOrPercentEncoded() {
        let redactor = SecretRedactor(credentials: credentials, endpoint: endpoint)
        let text = """
            key AKIAREDACTIONTEST123, secret s3cr3t/Key+Value=0123456789, token FwoGZXIvYXdzToken\\/with+slash=,
            encoded FwoGZXIvYXdzToken%2Fwith%2Bslash%3D, path /?apikey=topsecretvalue&x=1, user admin, password hunter22
            """
        let redacted = redactor.redact(text)
        for secret in ["AKIAREDACTIONTEST", "s3cr3t", "FwoGZXIvYXdzToken", "topsecretvalue", "hunter22"] {
            XCTAssertFalse(redacted.contains(secret), "\(secret) in \(redacted)")
        }
        XCTAssertTrue(
            redacted.contains("user admin"), "a value shorter than 6 characters is not searched for: \(redacted)")
    }

    func testHeadersParametersAndURLsAreRedactedWithoutKnowingTheValues() {
        let redactor = SecretRedactor()
        let cases: [(String, String)] = [
            (
                "Authorization: AWS4-HMAC-SHA256 Credential=AKIDX/20240101/us-east-1/s3/aws4_request, Signature=abc\nHost: h",
                "Authorization: [redacted]\nHost: h"
            ),
            (
                #"{"X-Amz-Security-Token": "tok/en+=", "Host": "h"}"#,
                #"{"X-Amz-Security-Token": "[redacted]", "Host": "h"}"#
            ),
            (
                "GET /k?X-Amz-Credential=AKIDX%2F2024&X-Amz-Signature=ff00&partNumber=1",
                "GET /k?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&partNumber=1"
            ),
            ("SignedHeaders=host, Signature=0123abcd, done", "SignedHeaders=host, Signature=[redacted], done"),
            (
                "no response from http://u:p@h:1/x?q=v: refused",
                "no response from http://[redacted]@h:1/x?[redacted] refused"
            ),
            ("'ftp://user:pw@host/?a=b' is invalid", "'ftp://[redacted]@host/?[redacted]' is invalid"),
            ("s3://bucket/data-?.csv matches nothing", "s3://bucket/data-?.csv matches nothing"),
            ("AuthorizationHeaderMalformed: set AWS_REGION", "AuthorizationHeaderMalformed: set AWS_REGION"),
            ("The conditional request failed", "The conditional request failed"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(redactor.redact(text), expected)
        }
    }

    func testEndpointsAreShownWithoutUserPasswordOrQuery() {
        XCTAssertEqual(SecretRedactor.display(endpoint), "http://proxy.example:8080/")
        XCTAssertEqual(SecretRedactor.display("http://127.0.0.1:8000"), "http://127.0.0.1:8000")
        XCTAssertEqual(SecretRedactor.display("ftp://u:p@h/a/b#f"), "ftp://h/a/b")
        XCTAssertEqual(SecretRedactor.display("user:pass@host:1"), "host:1")
        XCTAssertEqual(SecretRedactor.display("localhost:8000"), "localhost:8000")
    }
}
