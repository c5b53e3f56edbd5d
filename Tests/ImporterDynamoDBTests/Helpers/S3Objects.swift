import Foundation
@testable import ImporterAWS

/// S3 fixtures on the test server, made with signed PUTs (the importer's own client only reads
/// and uploads archives).
extension MotoServer {
    struct PutFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// Creates a bucket named `prefix-<random>` holding `objects` (key → bytes); its name.
    func makeBucket(_ prefix: String, objects: [String: [UInt8]] = [:]) throws -> String {
        let bucket = prefix + "-" + UUID().uuidString.lowercased().prefix(8)
        try put(endpoint.appendingPathComponent(bucket), body: [])
        for (key, bytes) in objects { try putObject(bytes, bucket: bucket, key: key) }
        return bucket
    }

    /// Puts (or replaces) one object; the key is percent-encoded segment by segment.
    func putObject(_ bytes: [UInt8], bucket: String, key: String) throws {
        let path = key.split(separator: "/", omittingEmptySubsequences: false).map { SigV4Signer.uriEncode(String($0)) }
        try put(URL(string: endpoint.absoluteString + bucket + "/" + path.joined(separator: "/"))!, body: bytes)
    }

    private func put(_ url: URL, body: [UInt8]) throws {
        let signer = SigV4Signer(credentials: credentials, region: "us-east-1", service: "s3")
        let response = try HTTPTestClient.signedS3("PUT", url, body: body, signer: signer)
        guard response.status == 200 else {
            throw PutFailed(description: "PUT \(url): HTTP \(response.status) \(response.text)")
        }
    }
}
