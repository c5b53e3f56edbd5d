import ImporterAWS
import Foundation

/// DynamoDB's JSON protocol 1.0 over HTTP: one signed POST per operation
/// (`X-Amz-Target: DynamoDB_20120810.<Operation>`), typed requests and responses, and retries
/// with backoff for what is retryable (SPEC §7, §11).
///
/// Async throughout: any number of tasks may call at once; at most `connections` requests are
/// in flight over kept-alive connections, the others wait suspended (`HTTPTransport`).
public final class DynamoDBClient: Sendable {
    public let endpoint: URL
    public let region: String
    public let retry: RetryPolicy
    private let signer: SigV4Signer
    private let transport: HTTPTransport

    /// - Parameters:
    ///   - connections: connections kept to the endpoint (the most requests in flight at once).
    ///   - timeout: seconds one request may take, connection included.
    public init(_ configuration: AWSResolvedConfiguration, retry: RetryPolicy = RetryPolicy(),
                connections: Int = 8, timeout: Double = 30) {
        endpoint = configuration.endpoint
        region = configuration.region
        self.retry = retry
        signer = SigV4Signer(credentials: configuration.credentials, region: configuration.region, service: "dynamodb")
        transport = HTTPTransport(limit: connections, timeout: timeout)
    }

    /// Sends a typed request, retrying retryable failures under `retry`; each retry is added to
    /// `retries` (when given) for `entity`. Throws `DynamoDBError`: the service's own error, or
    /// the last one once attempts run out.
    public func send<Request: DynamoDB.Operation>(_ request: Request, retries: RetryCounter? = nil,
                                                   entity: String = "") async throws -> Request.Response {
        let body: Data
        do {
            body = try Self.encoder.encode(request)
        } catch {
            throw DynamoDBError(operation: Request.name, status: nil, code: .validation, type: "ValidationException",
                                message: "the request cannot be encoded: \(error)")
        }
        let data = try await send(Request.name, body, retries: retries, entity: entity)
        do {
            return try JSONDecoder().decode(Request.Response.self, from: data)
        } catch {
            throw DynamoDBError(operation: Request.name, status: 200, code: .invalidResponse, type: "InvalidResponse",
                                message: "the response is not what \(Request.name) answers (\(error)): \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
    }

    /// Sends `operation` with a JSON `body`, retrying as `send(_:retries:entity:)` does; returns
    /// the response body.
    public func send(_ operation: String, _ body: Data, retries: RetryCounter? = nil, entity: String = "") async throws -> Data {
        var attempt = 1
        while true {
            do {
                return try await sendOnce(operation, body)
            } catch let error as DynamoDBError where error.isRetryable {
                guard try await retry.backOff(after: &attempt, counting: retries, entity: entity) else { throw error }
            }
        }
    }

    /// One attempt, no retry: the body of a 200 response.
    public func sendOnce(_ operation: String, _ body: Data) async throws -> Data {
        let headers = signer.sign(method: "POST", url: endpoint, headers: [
            (name: "Content-Type", value: "application/x-amz-json-1.0"),
            (name: "X-Amz-Target", value: "DynamoDB_20120810.\(operation)"),
        ], body: Array(body), date: Date())
        let response: HTTPResponse
        do {
            response = try await transport.post(endpoint, headers: headers, body: body)  // Host included: the signed value is the one sent
        } catch {
            throw DynamoDBError.transport(operation, "no response from \(endpoint.absoluteString): \(error)")
        }
        guard response.status == 200 else {
            throw DynamoDBError(operation: operation, status: response.status, errorTypeHeader: response.errorType, body: response.body)
        }
        return response.body
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}
