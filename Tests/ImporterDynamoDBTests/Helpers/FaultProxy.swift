import Foundation

/// `fault_proxy.py` in front of a server: injects throttling errors, 5xx, connection resets and
/// swallowed responses at the given rates, for the operations named. Stopped by PID.
final class FaultProxy {
    struct Rates {
        var throttle = 0.0
        var serverError = 0.0
        var reset = 0.0
        var swallow = 0.0
        /// An HTML 500 page instead of an answer.
        var htmlError = 0.0
        /// A GetObject answer broken off halfway through its body.
        var cut = 0.0
        /// UploadPart of this part number refused with AccessDenied (0: none).
        var denyPart = 0
        /// Write capacity units a second admitted; more is refused with
        /// ProvisionedThroughputExceededException (0: no limit).
        var wcuLimit = 0.0
        /// A TransactWriteItems with an item whose JSON holds this text is cancelled, that
        /// item's reason ValidationError; a BatchWriteItem with one is refused whole with a
        /// ValidationException, as DynamoDB refuses a batch (empty: none).
        var refuseItem = ""
        /// Another writer puts the item of the first TransactWriteItems Put holding this text
        /// just before the transaction is forwarded, signed with `changeCredentials` (empty: none).
        var changeFirst = ""
        var changeCredentials = (accessKeyId: "", secretAccessKey: "")
    }

    /// What the proxy injected so far.
    struct Stats: Decodable {
        let requests: Int
        let throttle: Int
        let serverError: Int
        let reset: Int
        let swallow: Int
        let htmlError: Int
        let cut: Int
        let deniedParts: Int
        /// The first byte of every GetObject range requested, in order.
        let rangeStarts: [Int]
        /// Write requests that reached the proxy, and those refused for `wcuLimit`.
        let writeRequests: Int
        let capacityThrottled: Int
        /// TransactWriteItems requests, and those cancelled for `refuseItem`.
        let transactions: Int
        let refusedTransactions: Int
        /// BatchWriteItem requests refused for `refuseItem`.
        let refusedBatches: Int
        /// Items another writer changed for `changeFirst`.
        let changedItems: Int
        /// Write capacity units forwarded in each second since the first write.
        let wcuBySecond: [Double]
        /// The ConsumedCapacity the upstream answered, summed per table.
        let consumedReported: [String: Consumed]
        var faults: Int { throttle + serverError + reset + swallow + htmlError + cut }
    }

    struct Consumed: Decodable {
        let write: Double
        let read: Double
    }

    let port: Int
    private let process: Process
    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    init(upstream: URL, rates: Rates, operations: [String], seed: Int = 7) throws {
        port = try MotoServer.freeLoopbackPort()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "fault_proxy.py")
        process = Process()
        process.executableURL = try MotoServer.findExecutable("python3")
        process.arguments =
            [
                script.path, "--port", String(port), "--upstream", upstream.absoluteString,
                "--throttle", String(rates.throttle), "--server-error", String(rates.serverError),
                "--reset", String(rates.reset), "--swallow", String(rates.swallow), "--html-error",
                String(rates.htmlError),
                "--cut", String(rates.cut),
                "--deny-part", String(rates.denyPart), "--wcu-limit", String(rates.wcuLimit),
                "--ops", operations.joined(separator: ","), "--seed", String(seed),
            ] + (rates.refuseItem.isEmpty ? [] : ["--refuse-item", rates.refuseItem])
            + (rates.changeFirst.isEmpty
                ? []
                : [
                    "--change-first", rates.changeFirst, "--change-key-id", rates.changeCredentials.accessKeyId,
                    "--change-secret", rates.changeCredentials.secretAccessKey,
                ])
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while (try? stats()) == nil {
            guard Date() < deadline, process.isRunning else {
                stop()
                throw MotoServerError.setup("the fault proxy did not start on port \(port)")
            }
            usleep(50_000)
        }
    }

    func stats() throws -> Stats {
        let response = try HTTPTestClient.send(
            HTTPTestClient.request(endpoint.appendingPathComponent("__stats"), method: "GET"))
        return try JSONDecoder().decode(Stats.self, from: response.body)
    }

    func stop() { MotoServer.stop(process) }
}
