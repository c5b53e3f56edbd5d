// A DynamoDB write sink for benchmarks (scripts/bench-dynamodb --sink): every write is answered
// as DynamoDB answers success, `--latency` seconds after it arrived, without being stored, so a
// benchmark measures the client (its requests in flight, its CPU), not the server.
//
//   BatchWriteItem, TransactWriteItems, PutItem, UpdateItem, DeleteItem
//       answered 200 after the latency; their items counted per table
//   BatchGetItem
//       answered after the latency as if nothing were stored (nothing written was)
//   GET /__stats
//       {"sunkItems": {table: items}, "writeRequests": n}
//   anything else (CreateTable, DescribeTable, Scan, ...)
//       forwarded to --upstream (a moto_server) as it came, without the latency
//
// One event loop thread; the latency is an event-loop timer, so the answer comes within a few
// microseconds of it. (A Python sink on asyncio answered 10 ms requests after 11.2 ms on average
// at 2,800 requests a second, and so understated what a client can do.)
//
// Usage: dynamodb-sink --port P --upstream http://127.0.0.1:Q --latency 0.01

import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Settings: Sendable {
    var port = 0
    var upstream = URL(string: "http://127.0.0.1:8000")!
    var latency = TimeAmount.zero

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst(), let value = rest.popFirst() {
            switch flag {
            case "--port": port = Int(value) ?? 0
            case "--upstream": upstream = URL(string: value)!
            case "--latency": latency = .nanoseconds(Int64((Double(value) ?? 0) * 1e9))
            default: fatalError("unknown option \(flag)")
            }
        }
    }
}

/// What the sink was sent, shared by every connection.
struct Counts: Sendable {
    var sunkItems: [String: Int] = [:]
    var writeRequests = 0
}

let writeOperations: Set<String> = ["BatchWriteItem", "TransactWriteItems", "PutItem", "UpdateItem", "DeleteItem"]

/// The table of each item a write request holds, read by a walk over the JSON that keeps only
/// table names: Foundation's JSONSerialization took a whole core at 2,700 requests a second.
func tables(of operation: String, _ body: [UInt8]) -> [String] {
    var walk = TableWalk(bytes: body)
    walk.value(path: [])
    switch operation {
    case "BatchWriteItem": return walk.batchTables
    default: return walk.tableNames
    }
}

/// A walk over JSON that records the string values of `TableName` members at the top or in a
/// transaction's action, and one entry per element of `RequestItems.<table>` arrays; deeper
/// values (the items themselves) are skipped.
struct TableWalk {
    let bytes: [UInt8]
    var at = 0
    var tableNames: [String] = []
    var batchTables: [String] = []

    mutating func value(path: [String]) {
        space()
        guard at < bytes.count else { return }
        switch bytes[at] {
        case UInt8(ascii: "{"):
            at += 1
            while true {
                space()
                guard at < bytes.count, bytes[at] != UInt8(ascii: "}") else { break }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                let key = string()
                space()
                at += 1  // ':'
                if path.count < 4 { value(path: path + [key]) } else { skip() }
            }
            at += 1
        case UInt8(ascii: "["):
            at += 1
            while true {
                space()
                guard at < bytes.count, bytes[at] != UInt8(ascii: "]") else { break }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                if path.count == 2 && path[0] == "RequestItems" { batchTables.append(path[1]) }
                if path.count < 4 { value(path: path + ["[]"]) } else { skip() }
            }
            at += 1
        case UInt8(ascii: "\""):
            let text = string()
            if path.last == "TableName" && (path.count == 1 || path.first == "TransactItems") {
                tableNames.append(text)
            }
        default:
            skip()
        }
    }

    /// Skips one value of any kind.
    mutating func skip() {
        space()
        var depth = 0
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "\""): _ = string(); if depth == 0 { return }; continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return }
                depth -= 1
                if depth == 0 { at += 1; return }
            case UInt8(ascii: ","): if depth == 0 { return }
            default: break
            }
            at += 1
        }
    }

    /// A string's text (escapes kept as written: table names have none).
    mutating func string() -> String {
        at += 1
        let start = at
        while at < bytes.count && bytes[at] != UInt8(ascii: "\"") {
            at += bytes[at] == UInt8(ascii: "\\") ? 2 : 1
        }
        defer { at += 1 }
        return String(decoding: bytes[start..<min(at, bytes.count)], as: UTF8.self)
    }

    mutating func space() {
        while at < bytes.count, [9, 10, 13, 32].contains(bytes[at]) { at += 1 }
    }
}

final class SinkHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let settings: Settings
    private let counts: NIOLockedValueBox<Counts>
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(settings: Settings, counts: NIOLockedValueBox<Counts>) {
        self.settings = settings
        self.counts = counts
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body.clear()
        case .body(var part):
            body.writeBuffer(&part)
        case .end:
            guard let head else { return }
            answer(head, Array(body.readableBytesView), context: context)
        }
    }

    private func answer(_ head: HTTPRequestHead, _ bytes: [UInt8], context: ChannelHandlerContext) {
        let operation = head.headers["X-Amz-Target"].first?.split(separator: ".").last.map(String.init) ?? ""
        if head.method == .GET && head.uri == "/__stats" {
            let snapshot = counts.withLockedValue { $0 }
            let json = try! JSONSerialization.data(withJSONObject: [
                "sunkItems": snapshot.sunkItems, "writeRequests": snapshot.writeRequests,
            ])
            return Self.respond(200, Array(json), type: "application/json", context: context)
        }
        if writeOperations.contains(operation) || operation == "BatchGetItem" {
            let answer: String
            if operation == "BatchGetItem" {
                let request = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
                let names = (request["RequestItems"] as? [String: Any] ?? [:]).keys
                answer =
                    #"{"Responses":{"# + names.map { #""\#($0)":[]"# }.joined(separator: ",")
                    + #"},"UnprocessedKeys":{}}"#
            } else {
                let sunk = tables(of: operation, bytes)
                counts.withLockedValue { counts in
                    counts.writeRequests += 1
                    for table in sunk { counts.sunkItems[table, default: 0] += 1 }
                }
                answer = operation == "BatchWriteItem" ? #"{"UnprocessedItems":{}}"# : "{}"
            }
            let isolated = context.eventLoop.assumeIsolated()
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            isolated.scheduleTask(in: settings.latency) {
                Self.respond(200, Array(answer.utf8), type: "application/x-amz-json-1.0", context: bound.value)
            }
            return
        }
        forward(head, bytes, context: context)
    }

    /// Sends the request on to the upstream server and its answer back (off the event loop).
    private func forward(_ head: HTTPRequestHead, _ bytes: [UInt8], context: ChannelHandlerContext) {
        var request = URLRequest(url: URL(string: head.uri, relativeTo: settings.upstream)!)
        request.httpMethod = head.method.rawValue
        for (name, value) in head.headers where !["host", "connection", "content-length"].contains(name.lowercased()) {
            request.addValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = Data(bytes)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let loop = context.eventLoop
        URLSession.shared.dataTask(with: request) { data, response, _ in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 502
            let type = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") ?? "text/plain"
            let payload = Array(data ?? Data())
            loop.execute { Self.respond(status, payload, type: type, context: bound.value) }
        }.resume()
    }

    private static func respond(_ status: Int, _ payload: [UInt8], type: String, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(payload.count))
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: payload)))), promise: nil)
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
    }
}

let settings = Settings(CommandLine.arguments)
let counts = NIOLockedValueBox(Counts())
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let channel = try ServerBootstrap(group: group)
    .serverChannelOption(.backlog, value: 1024)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline()
            try channel.pipeline.syncOperations.addHandler(SinkHandler(settings: settings, counts: counts))
        }
    }
    .bind(host: "127.0.0.1", port: settings.port).wait()
FileHandle.standardOutput.write(Data("listening\n".utf8))
try channel.closeFuture.wait()
