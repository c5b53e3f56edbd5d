import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// DynamoDB's JSON protocol 1.0 over HTTP: one signed POST per operation
/// (`X-Amz-Target: DynamoDB_20120810.<Operation>`), kept-alive connections, timeouts, and
/// retries with backoff for what is retryable (SPEC §7, §11).
///
/// Calls block the calling thread; any number of threads may call at once (up to
/// `connections` requests are then in flight).
public final class DynamoDBClient: @unchecked Sendable {
    public let endpoint: URL
    public let region: String
    public let retry: RetryPolicy
    private let signer: SigV4Signer
    private let http: HTTPClient
    private let timeout: TimeAmount

    /// - Parameters:
    ///   - connections: connections kept to the endpoint (the most requests in flight at once).
    ///   - timeout: seconds one request may take, connection included.
    public init(_ configuration: AWSResolvedConfiguration, retry: RetryPolicy = RetryPolicy(),
                connections: Int = 8, timeout: Double = 30) {
        endpoint = configuration.endpoint
        region = configuration.region
        self.retry = retry
        signer = SigV4Signer(credentials: configuration.credentials, region: configuration.region, service: "dynamodb")
        let milliseconds = Int64(timeout * 1000)
        self.timeout = .milliseconds(milliseconds)
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(
            timeout: .init(connect: .milliseconds(min(milliseconds, 10_000)), read: .milliseconds(milliseconds)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, connections))))
    }

    deinit { try? http.syncShutdown() }

    /// Sends `operation` with a JSON `body`, retrying retryable failures under `retry`; returns
    /// the response's JSON object. Each retry is added to `retries` (when given) for `entity`.
    /// Throws `DynamoDBError`: the service's own error, or the last one once attempts run out.
    public func send(_ operation: String, _ body: [UInt8], retries: RetryCounter? = nil, entity: String = "") throws -> [String: Any] {
        var attempt = 1
        while true {
            do {
                return try sendOnce(operation, body)
            } catch let error as DynamoDBError where error.isRetryable {
                guard retry.backOff(after: &attempt, counting: retries, entity: entity) else { throw error }
            }
        }
    }

    /// One attempt, no retry.
    public func sendOnce(_ operation: String, _ body: [UInt8]) throws -> [String: Any] {
        let headers = signer.sign(method: "POST", url: endpoint, headers: [
            (name: "Content-Type", value: "application/x-amz-json-1.0"),
            (name: "X-Amz-Target", value: "DynamoDB_20120810.\(operation)"),
        ], body: body, date: Date())
        let response: HTTPClient.Response
        do {
            var request = try HTTPClient.Request(url: endpoint, method: .POST, body: .bytes(body))
            for header in headers {  // Host included: the signed value is the one sent
                request.headers.add(name: header.name, value: header.value)
            }
            response = try http.execute(request: request, deadline: .now() + timeout).wait()
        } catch {
            throw DynamoDBError(operation: operation, status: nil, type: "transport",
                                message: "no response from \(endpoint.absoluteString): \(error)")
        }
        let bytes = response.body.map { Array($0.readableBytesView) } ?? []
        let status = Int(response.status.code)
        guard status == 200 else {
            throw DynamoDBError(operation: operation, status: status,
                                errorTypeHeader: response.headers.first(name: "x-amzn-errortype"), body: bytes)
        }
        guard let json = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw DynamoDBError(operation: operation, status: status, type: "InvalidResponse",
                                message: "the response is not a JSON object: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        return json
    }
}
