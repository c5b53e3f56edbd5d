import Foundation

/// `echo_server.py` on a free loopback port: every request is refused with an error body that
/// echoes the request's path, query and headers, credentials included, as JSON (DynamoDB's
/// errors), S3's XML or an HTML page. Stopped by PID.
final class EchoServer {
    enum Style: String, CaseIterable {
        case json, xml, html
    }

    let port: Int
    private let process: Process
    var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

    init(style: Style) throws {
        port = try MotoServer.freeLoopbackPort()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "echo_server.py")
        process = Process()
        process.executableURL = try MotoServer.findExecutable("python3")
        process.arguments = [script.path, "--port", String(port), "--style", style.rawValue]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while (try? HTTPTestClient.send(HTTPTestClient.request(base.appendingPathComponent("__ping"), method: "GET")))?
            .status != 200
        {
            guard Date() < deadline, process.isRunning else {
                stop()
                throw MotoServerError.setup("the echo server did not start on port \(port)")
            }
            usleep(50_000)
        }
    }

    func stop() { MotoServer.stop(process) }
}
