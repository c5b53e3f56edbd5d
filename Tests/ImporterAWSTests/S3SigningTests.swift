import Foundation
@testable import ImporterAWS
@testable import ImporterS3
import XCTest

/// S3's SigV4 against AWS's own examples ("Signature Calculations for the Authorization
/// Header: Transferring Payload in a Single Chunk", Amazon S3 API Reference: the GET Object and
/// GET Bucket (List Objects) examples), and the URLs the client builds.
final class S3SigningTests: XCTestCase {
    static let signer = SigV4Signer(
        credentials: AWSCredentials(
            accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1", service: "s3")
    /// Fri, 24 May 2013 00:00:00 GMT.
    static let date = Date(timeIntervalSince1970: 1_369_353_600)
    static let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    private func signature(_ url: String, headers: [(name: String, value: String)]) throws -> String {
        let signed = Self.signer.sign(
            method: "GET", url: try XCTUnwrap(URL(string: url)), headers: headers, body: [], date: Self.date)
        let authorization = try XCTUnwrap(signed.first { $0.name == "Authorization" }?.value)
        return String(try XCTUnwrap(authorization.components(separatedBy: "Signature=").last))
    }

    func testGetObjectWithARangeSignsAsAWSsExample() throws {
        XCTAssertEqual(
            try signature(
                "https://examplebucket.s3.amazonaws.com/test.txt",
                headers: [
                    ("Range", "bytes=0-9"), ("x-amz-content-sha256", Self.emptyHash),
                ]), "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    func testListObjectsSignsAsAWSsExample() throws {
        XCTAssertEqual(
            try signature(
                "https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J",
                headers: [
                    ("x-amz-content-sha256", Self.emptyHash)
                ]), "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    func testURLsArePathStyleWithAnEndpointAndEncodeKeysOnce() throws {
        let credentials = AWSCredentials(accessKeyId: "a", secretAccessKey: "b")
        let local = S3Client(
            configuration: AWSResolvedConfiguration(
                credentials: credentials, region: "eu-west-1", endpoint: URL(string: "http://127.0.0.1:9000")!),
            pathStyleEndpoint: URL(string: "http://127.0.0.1:9000/")!)
        XCTAssertEqual(
            local.url(bucket: "b", key: "dumps/sub dir/ü+1.csv", query: []).absoluteString,
            "http://127.0.0.1:9000/b/dumps/sub%20dir/%C3%BC%2B1.csv")
        XCTAssertEqual(
            local.url(bucket: "b", key: nil, query: [("list-type", "2"), ("prefix", "a/b c")]).absoluteString,
            "http://127.0.0.1:9000/b?list-type=2&prefix=a%2Fb%20c")
        let aws = S3Client(
            configuration: AWSResolvedConfiguration(
                credentials: credentials, region: "eu-west-1",
                endpoint: URL(string: "https://s3.eu-west-1.amazonaws.com")!),
            pathStyleEndpoint: nil)
        XCTAssertEqual(
            aws.url(bucket: "dumps", key: "2024/a.csv", query: []).absoluteString,
            "https://dumps.s3.eu-west-1.amazonaws.com/2024/a.csv")
        XCTAssertEqual(S3Location("s3://bucket/dumps/*.csv.gz"), S3Location(bucket: "bucket", key: "dumps/*.csv.gz"))
        XCTAssertEqual(S3Location("s3://bucket/dumps/*.csv.gz")?.listingPrefix, "dumps/")
        XCTAssertNil(S3Location("s3:///key"))
        XCTAssertNil(S3Location("/local/path"))
    }
}
