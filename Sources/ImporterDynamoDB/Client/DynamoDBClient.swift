import ImporterAWS
import Foundation

/// DynamoDB's JSON protocol 1.0 over HTTP: one signed POST per operation
/// (`X-Amz-Target: DynamoDB_20120810.<Operation>`), typed requests and responses, and retries
/// with backoff for what is retryable (docs/writes.md, docs/dynamodb.md).
///
/// Async throughout: any number of tasks may call at once; at most `connections` requests are
/// in flight over kept-alive connections, the others wait suspended (`HTTPTransport`).
public final class DynamoDBClient: Sendable {
    public let endpoint: URL
    public let region: String
    package let retry: RetryPolicy
    /// The send rate shared by every request of the client (docs/dynamodb.md); nil sends as fast as
    /// `connections` allow (`retry.mode: standard`).
    package let rateLimiter: AdaptiveRateLimiter?
    /// Write capacity units a second the client's writes stay under (`write.maxWCU`).
    package let writeBudget: CapacityBudget?
    /// The capacity the service said each entity's requests consumed.
    package let consumed = CapacityCounter()
    /// Takes the credentials and the endpoint's secrets out of every error's text.
    package let redactor: SecretRedactor
    private let signer: SigV4Signer
    private let transport: HTTPTransport
    /// The headers every request sends before it is signed: the `Host` among them, derived
    /// from the endpoint once rather than at each signature.
    private let fixedHeaders: [(name: String, value: String)]

    /// A client of the endpoint, region and credentials of `configuration`.
    ///
    /// - Parameters:
    ///   - configuration: where and as whom to connect (`AWSEnvironment.resolve()`).
    ///   - retry: how throttled and failed requests are retried.
    ///   - connections: connections kept to the endpoint (the most requests in flight at once).
    ///   - timeout: seconds one request may take, connection included.
    ///   - adaptive: the send rate adapts to throttling (the AWS SDKs' adaptive retry mode).
    ///   - maxWriteUnits: write capacity units a second to stay under; nil for no limit.
    public init(
        _ configuration: AWSResolvedConfiguration, retry: RetryPolicy = RetryPolicy(),
        connections: Int = 8, timeout: Double = 30, adaptive: Bool = true, maxWriteUnits: Double? = nil
    ) {
        endpoint = configuration.endpoint
        region = configuration.region
        self.retry = retry
        rateLimiter = adaptive ? AdaptiveRateLimiter() : nil
        writeBudget = maxWriteUnits.map { CapacityBudget(unitsPerSecond: $0) }
        redactor = SecretRedactor(credentials: configuration.credentials, endpoint: configuration.endpoint)
        signer = SigV4Signer(credentials: configuration.credentials, region: configuration.region, service: "dynamodb")
        transport = HTTPTransport(limit: connections, timeout: timeout)
        fixedHeaders =
            SigV4Signer.hostHeaderValue(for: configuration.endpoint).map { [(name: "Host", value: $0)] } ?? []
    }

    /// The endpoint as messages show it: no user, password or query (docs/dynamodb.md).
    public var endpointDescription: String { SecretRedactor.display(endpoint) }

    /// Sends a typed request, retrying retryable failures under `retry`; each retry is added to
    /// `retries` (when given) for `entity`, and the capacity the response says it consumed to
    /// `consumed`. A write request gives `writeUnits`, the capacity it is expected to consume,
    /// which `writeBudget` reserves before each attempt. Throws `DynamoDBError`: the service's
    /// own error, or the last one once attempts run out.
    package func send<Request: DynamoDB.Operation>(
        _ request: Request, retries: RetryCounter? = nil,
        entity: String = "", writeUnits: Double = 0
    ) async throws -> Request.Response {
        let body: Data
        do {
            body = try request.body()
        } catch {
            throw DynamoDBError(
                operation: Request.name, status: nil, code: .validation, type: "ValidationException",
                message: "the request cannot be encoded: \(error)")
        }
        let data = try await send(Request.name, body, retries: retries, entity: entity, writeUnits: writeUnits)
        let response: Request.Response
        do {
            response = try JSONDecoder().decode(Request.Response.self, from: data)
        } catch {
            throw DynamoDBError(
                operation: Request.name, status: 200, code: .invalidResponse, type: "InvalidResponse",
                message: redactor.redact("the response is not what \(Request.name) answers (\(error)): ")
                    + String(redactor.redact(String(decoding: data.prefix(4000), as: UTF8.self)).prefix(200)))
        }
        if let units = (response as? any DynamoDB.ReportsCapacity)?.consumedCapacity?.units {
            if !entity.isEmpty { consumed.add(units, write: Request.writes, for: entity) }
            if Request.writes { writeBudget?.charge(units - writeUnits) }
        }
        return response
    }

    /// Sends `operation` with a JSON `body`, retrying as `send(_:retries:entity:writeUnits:)`
    /// does; returns the response body. Each attempt waits for its turn under the adaptive rate
    /// and the write budget. With the adaptive rate on, a throttle uses up no attempt when the
    /// run made progress since this request's previous throttle (at its first: at all), that
    /// is when some request of the client succeeded meanwhile.
    package func send(
        _ operation: String, _ body: Data, retries: RetryCounter? = nil, entity: String = "",
        writeUnits: Double = 0
    ) async throws -> Data {
        var attempt = 1
        var successesAtLastThrottle = 0
        while true {
            try await rateLimiter?.acquire()
            if writeUnits > 0 { try await writeBudget?.spend(writeUnits) }
            do {
                let data = try await sendOnce(operation, body)
                rateLimiter?.record(throttled: false)
                return data
            } catch let error as DynamoDBError {
                if error.code != .transport { rateLimiter?.record(throttled: error.isThrottling) }
                guard error.isRetryable else { throw error }
                var progressed = false
                if error.isThrottling, let successes = rateLimiter?.successes {
                    progressed = successes > successesAtLastThrottle
                    successesAtLastThrottle = successes
                }
                guard
                    try await retry.backOff(
                        after: &attempt, counting: retries, entity: entity, usingAnAttempt: !progressed)
                else {
                    throw error
                }
            }
        }
    }

    /// Tells the adaptive rate of a throttle met inside a successful response (a batch's
    /// unprocessed items, a transaction cancelled for throughput).
    package func recordThrottle() { rateLimiter?.record(throttled: true) }

    /// One attempt, no retry: the body of a 200 response.
    package func sendOnce(_ operation: String, _ body: Data) async throws -> Data {
        let headers = signer.sign(
            method: "POST", url: endpoint,
            headers: fixedHeaders + [
                (name: "Content-Type", value: "application/x-amz-json-1.0"),
                (name: "X-Amz-Target", value: "DynamoDB_20120810.\(operation)"),
            ], body: Array(body), date: Date())
        let response: HTTPResponse
        do {
            // Host included: the signed value is the one sent
            response = try await transport.post(endpoint, headers: headers, body: body)
        } catch {
            throw DynamoDBError.transport(
                operation, "no response from \(endpointDescription): \(redactor.redact("\(error)"))")
        }
        guard response.status == 200 else {
            throw DynamoDBError(
                operation: operation, status: response.status, errorTypeHeader: response.errorType, body: response.body,
                redactor: redactor)
        }
        return response.body
    }
}
