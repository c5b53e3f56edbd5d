import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// An HTTP response as the client reads it.
package struct HTTPResponse: Sendable {
    package let status: Int
    /// The `x-amzn-errortype` header, if any.
    package let errorType: String?
    package let body: Data
    /// Every header, names lowercased (the last value of a repeated one).
    package let headers: [String: String]

    package init(status: Int, errorType: String?, body: Data, headers: [String: String]) {
        self.status = status
        self.errorType = errorType
        self.body = body
        self.headers = headers
    }
}

/// An HTTP response whose body is still arriving: S3 objects are read as they stream in.
package struct HTTPStreamingResponse: Sendable {
    package let status: Int
    /// Every header, names lowercased.
    package let headers: [String: String]
    package let body: HTTPClientResponse.Body
}

/// Requests over AsyncHTTPClient's async API: at most `limit` requests in flight (the others wait,
/// suspended, in order), over a pool of `limit` kept-alive connections, each request given up
/// after `timeout` seconds. No thread per request and no blocking wait: the event loop does
/// the I/O, tasks suspend meanwhile.
///
/// (URLSession, which needs nothing compiled, was measured too; on Linux it spun the CPU and
/// stalled when a connection was reset — BENCHMARKS.md.)
package final class HTTPTransport: Sendable {
    private let http: HTTPClient
    private let slots: TaskSlots
    private let timeout: TimeAmount

    package init(limit: Int, timeout: Double) {
        let milliseconds = Int64(timeout * 1000)
        self.timeout = .milliseconds(milliseconds)
        http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(
                timeout: .init(connect: .milliseconds(min(milliseconds, 10_000)), read: .milliseconds(milliseconds)),
                connectionPool: .init(
                    idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, limit))))
        slots = TaskSlots(max(1, limit))
    }

    deinit { http.shutdown(queue: .global()) { _ in } }

    /// POSTs `body` with `headers` to `url`; throws when no response came back in time.
    package func post(_ url: URL, headers: [(name: String, value: String)], body: Data) async throws -> HTTPResponse {
        try await send("POST", url, headers: headers, body: body)
    }

    /// Sends a request and collects its response (at most 64 MiB: DynamoDB answers, S3 listings).
    package func send(_ method: String, _ url: URL, headers: [(name: String, value: String)], body: Data?) async throws
        -> HTTPResponse
    {
        await slots.acquire()
        defer { slots.release() }
        let response = try await http.execute(request(method, url, headers: headers, body: body), timeout: timeout)
        let bytes = try await response.body.collect(upTo: 64 << 20)
        let headers = Self.headers(response.headers)
        return HTTPResponse(
            status: Int(response.status.code), errorType: headers["x-amzn-errortype"],
            body: Data(bytes.readableBytesView), headers: headers)
    }

    /// Sends a request and hands over the response as its body starts to arrive. The request's
    /// slot is held until `body` is done with, so call it for bodies read at once.
    package func stream<T: Sendable>(
        _ method: String, _ url: URL, headers: [(name: String, value: String)],
        _ body: (HTTPStreamingResponse) async throws -> T
    ) async throws -> T {
        await slots.acquire()
        defer { slots.release() }
        // Only connecting and the head have the timeout: a long body keeps streaming (its
        // reads time out on the connection's read timeout).
        let response = try await http.execute(request(method, url, headers: headers, body: nil), timeout: timeout)
        return try await body(
            HTTPStreamingResponse(
                status: Int(response.status.code), headers: Self.headers(response.headers),
                body: response.body))
    }

    private func request(_ method: String, _ url: URL, headers: [(name: String, value: String)], body: Data?)
        -> HTTPClientRequest
    {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .init(rawValue: method)
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        return request
    }

    private static func headers(_ headers: some Sequence<(name: String, value: String)>) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in headers { result[name.lowercased()] = value }
        return result
    }
}
