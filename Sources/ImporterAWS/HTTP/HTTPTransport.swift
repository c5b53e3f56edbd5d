import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// An HTTP response as the client reads it.
public struct HTTPResponse: Sendable {
    public let status: Int
    /// The `x-amzn-errortype` header, if any.
    public let errorType: String?
    public let body: Data
}

/// POSTs over AsyncHTTPClient's async API: at most `limit` requests in flight (the others wait,
/// suspended, in order), over a pool of `limit` kept-alive connections, each request given up
/// after `timeout` seconds. No thread per request and no blocking wait: the event loop does
/// the I/O, tasks suspend meanwhile.
///
/// (URLSession, which needs nothing compiled, was measured too; on Linux it spun the CPU and
/// stalled when a connection was reset — BENCHMARKS.md.)
public final class HTTPTransport: Sendable {
    private let http: HTTPClient
    private let slots: RequestSlots
    private let timeout: TimeAmount

    public init(limit: Int, timeout: Double) {
        let milliseconds = Int64(timeout * 1000)
        self.timeout = .milliseconds(milliseconds)
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(
            timeout: .init(connect: .milliseconds(min(milliseconds, 10_000)), read: .milliseconds(milliseconds)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, limit))))
        slots = RequestSlots(max(1, limit))
    }

    deinit { http.shutdown(queue: .global()) { _ in } }

    /// POSTs `body` with `headers` to `url`; throws when no response came back in time.
    public func post(_ url: URL, headers: [(name: String, value: String)], body: Data) async throws -> HTTPResponse {
        await slots.acquire()
        defer { slots.release() }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await http.execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 64 << 20)
        return HTTPResponse(status: Int(response.status.code), errorType: response.headers.first(name: "x-amzn-errortype"),
                            body: Data(bytes.readableBytesView))
    }
}

/// A counting semaphore for tasks: `acquire` suspends (never blocks a thread) until a slot is free.
private final class RequestSlots: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(_ count: Int) { state = Mutex(State(free: count)) }

    func acquire() async {
        await withCheckedContinuation { (slot: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(slot)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { slot.resume() }
        }
    }

    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
