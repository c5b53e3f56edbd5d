import Foundation
import ImporterCore
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// A real DynamoDB-protocol server for the tests (docs/dynamodb.md): moto's server (PyPI `moto[server]`,
/// installed by scripts/setup) on a free loopback port, with IAM authentication enforced, serving
/// one request at a time so single-item writes are atomic as in DynamoDB (Helpers/atomic_moto_server.py).
///
/// How moto's authentication works (read in moto 5.2.1's source, site-packages/moto; the same in
/// 5.1.22, the version scripts/setup pins):
/// - settings.py: `INITIAL_NO_AUTH_ACTION_COUNT` (default infinity) is how many actions run before
///   authentication starts; 0 means every action is authenticated. core/authorization.py,
///   `ActionAuthenticatorMixin._authenticate_and_authorize_action`, called from `BaseResponse.call_action`
///   for every service using the generic dispatcher (DynamoDB and IAM included), then runs
///   iam/access_control.py's `IAMRequest.check_signature` (recomputes the SigV4 signature with botocore
///   and raises `SignatureDoesNotMatch`, 403) and `check_action_permitted` (the user's IAM policies;
///   `AccessDenied` otherwise).
/// - The access key must exist in moto's IAM backend (`IAMUserAccessKey.__init__` searches the users'
///   access keys; an unknown key gives `InvalidClientTokenId`, 403). moto has no built-in key that passes
///   (its documented "testing"/"FOOBARKEY" keys only work while authentication is off).
/// - So credentials are made on the server itself: `POST /moto-api/reset-auth` with a plain-text count
///   (moto_api/_internal/responses.py, `reset_auth_response`; moto's own `set_initial_no_auth_action_count`
///   uses it in server mode) sets the count and resets the action counter. `start()` launches with
///   `INITIAL_NO_AUTH_ACTION_COUNT=0`, opens an unauthenticated window (`inf`) just long enough for IAM
///   `CreateUser`, `CreateAccessKey` and `PutUserPolicy` (allow `dynamodb:*`), then closes it (`0`).
///   From then on only `credentials` (and correctly signed requests) are accepted.
final class MotoServer {
    let port: Int
    /// The IAM user's access key, created on this server; the only credentials it accepts.
    let credentials: AWSCredentials
    /// stdout and stderr of the server, a temp file (a pipe could fill up and block the server).
    let logFile: URL
    private let process: Process

    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/") ?? URL(fileURLWithPath: "/") }

    private init(port: Int, credentials: AWSCredentials, logFile: URL, process: Process) {
        self.port = port
        self.credentials = credentials
        self.logFile = logFile
        self.process = process
    }

    /// Starts `moto_server`, waits until it answers, creates credentials and turns authentication on.
    /// On failure the process is stopped and the error carries the server's log.
    static func start(timeout: TimeInterval = 20) throws -> MotoServer {
        let (executable, prefix) = try serverCommand.get()
        let port = try freeLoopbackPort()
        let logFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "moto-\(port)-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: logFile.path, contents: nil) else {
            throw MotoServerError.setup("cannot create the log file \(logFile.path)")
        }
        let log = try FileHandle(forWritingTo: logFile)
        defer { try? log.close() }  // the child keeps its own descriptor

        let process = Process()
        process.executableURL = executable
        process.arguments = prefix + ["-H", "127.0.0.1", "-p", String(port)]
        var environment = ProcessInfo.processInfo.environment
        environment["INITIAL_NO_AUTH_ACTION_COUNT"] = "0"  // authentication on from the first request
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        try process.run()

        let base = URL(string: "http://127.0.0.1:\(port)/") ?? URL(fileURLWithPath: "/")
        do {
            try waitUntilAnswering(base, process: process, timeout: timeout)
            let credentials = try createCredentials(base)
            return MotoServer(port: port, credentials: credentials, logFile: logFile, process: process)
        } catch {
            stop(process)
            let log = readLog(logFile)
            try? FileManager.default.removeItem(at: logFile)
            throw MotoServerError.startFailed(reason: "\(error)", log: log)
        }
    }

    /// Runs `body` with authentication off. moto checks an S3 signature against the URL as its
    /// web framework decoded it (`prefix=a/` for `prefix=a%2F`, `ü` for `%C3%BC`), which AWS
    /// does not; requests with such URLs are checked without it (the signer follows AWS's own
    /// S3 vectors: ImporterAWSTests, S3SigningTests and SigV4SignerTests).
    func withAuthenticationOff<T>(_ body: () throws -> T) throws -> T {
        try Self.setAuthentication(endpoint, unauthenticatedActions: "inf")
        defer { try? Self.setAuthentication(endpoint, unauthenticatedActions: "0") }
        return try body()
    }

    /// SIGTERM, up to ~3 s for it to exit, then SIGKILL. Safe to call twice.
    func stop() {
        Self.stop(process)
        try? FileManager.default.removeItem(at: logFile)
    }

    /// The server's output so far (for failure messages).
    func log() -> String { Self.readLog(logFile) }

    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    private static func readLog(_ file: URL) -> String {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? "(no log)"
        return String(text.suffix(4000))
    }

    // MARK: - Start-up steps

    /// `python3 atomic_moto_server.py`: moto's server, one request at a time (see that script for
    /// why), with the python3 on PATH that can import moto (scripts/setup installs it). Found once
    /// per test process: the probe takes as long as the server's own start.
    static let serverCommand = Result { try findServerCommand() }

    private static func findServerCommand() throws -> (URL, [String]) {
        let python = try findExecutable("python3")
        let probe = Process()
        probe.executableURL = python
        probe.arguments = ["-c", "import moto.server"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        try probe.run()
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else {
            throw MotoServerError.setup(
                "python3 cannot import moto.server: run scripts/setup (pip install 'moto[server]')")
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Helpers/atomic_moto_server.py")
        return (python, [script.path])
    }

    /// The first `name` on PATH that is executable.
    static func findExecutable(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw MotoServerError.setup(
            "\(name) not found on PATH (\(path)): run scripts/setup (pip install 'moto[server]')")
    }

    /// Binds a TCP socket to 127.0.0.1:0, reads the port the kernel chose, closes it.
    static func freeLoopbackPort() throws -> Int {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw MotoServerError.setup("socket() failed: errno \(errno)") }
        defer { close(descriptor) }

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw MotoServerError.setup("bind/getsockname on 127.0.0.1:0 failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Polls until moto answers any HTTP request (GET /moto-api/reset-auth gives 400 "Need to POST").
    private static func waitUntilAnswering(_ base: URL, process: Process, timeout: TimeInterval) throws {
        let probe = base.appendingPathComponent("moto-api/reset-auth")
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard process.isRunning else {
                throw MotoServerError.setup("moto_server exited with status \(process.terminationStatus)")
            }
            if (try? HTTPTestClient.send(HTTPTestClient.request(probe, method: "GET"), timeout: 1)) != nil { return }
            usleep(100_000)
        }
        throw MotoServerError.setup("moto_server did not answer on \(base) within \(Int(timeout)) s")
    }

    /// Opens an unauthenticated window, creates an IAM user with an access key allowed `dynamodb:*` and `s3:*`, closes it.
    private static func createCredentials(_ base: URL) throws -> AWSCredentials {
        try setAuthentication(base, unauthenticatedActions: "inf")
        // Any well-formed SigV4 signature works while authentication is off; the "iam" scope routes the request.
        let bootstrap = SigV4Signer(
            credentials: AWSCredentials(accessKeyId: "AKIDBOOTSTRAP", secretAccessKey: "bootstrap"),
            region: "us-east-1", service: "iam")
        func iam(_ parameters: [(String, String)]) throws -> String {
            var query = URLComponents()
            query.queryItems = ([("Version", "2010-05-08")] + parameters).map { URLQueryItem(name: $0.0, value: $0.1) }
            // URLComponents leaves `+` alone; in a form body it would mean a space.
            let body = Array((query.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B").utf8)
            let response = try HTTPTestClient.signedPOST(
                base, headers: [(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                body: body, signer: bootstrap)
            guard response.status == 200 else {
                throw MotoServerError.setup(
                    "IAM \(parameters.first?.1 ?? "") failed: HTTP \(response.status) \(response.text)")
            }
            return response.text
        }
        let user = "importer-tests"
        _ = try iam([("Action", "CreateUser"), ("UserName", user)])
        let created = try iam([("Action", "CreateAccessKey"), ("UserName", user)])
        let policy =
            #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["dynamodb:*","s3:*"],"Resource":"*"}]}"#
        _ = try iam([
            ("Action", "PutUserPolicy"), ("UserName", user), ("PolicyName", "dynamodb-and-s3"),
            ("PolicyDocument", policy),
        ])
        guard let accessKeyId = xmlElement("AccessKeyId", in: created),
            let secretAccessKey = xmlElement("SecretAccessKey", in: created)
        else { throw MotoServerError.setup("CreateAccessKey returned no key: \(created)") }
        try setAuthentication(base, unauthenticatedActions: "0")
        return AWSCredentials(accessKeyId: accessKeyId, secretAccessKey: secretAccessKey)
    }

    /// `POST /moto-api/reset-auth` with the number of actions allowed before authentication starts.
    static func setAuthentication(_ base: URL, unauthenticatedActions: String) throws {
        var request = HTTPTestClient.request(base.appendingPathComponent("moto-api/reset-auth"), method: "POST")
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")  // moto reads the raw body
        request.httpBody = Data(unauthenticatedActions.utf8)
        let response = try HTTPTestClient.send(request)
        guard response.status == 200 else {
            throw MotoServerError.setup(
                "reset-auth \(unauthenticatedActions): HTTP \(response.status) \(response.text)")
        }
    }

    /// The text of the first `<name>…</name>` (moto's IAM answers are small, flat XML).
    private static func xmlElement(_ name: String, in xml: String) -> String? {
        guard let open = xml.range(of: "<\(name)>"),
            let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex)
        else { return nil }
        return String(xml[open.upperBound..<close.lowerBound])
    }
}

enum MotoServerError: Error, CustomStringConvertible {
    case setup(String)
    case startFailed(reason: String, log: String)

    var description: String {
        switch self {
        case let .setup(message): return message
        case let .startFailed(reason, log): return "moto_server failed to start: \(reason)\n--- server log ---\n\(log)"
        }
    }
}

// MARK: - A synchronous HTTP client for tests

/// URLSession behind a semaphore: tests send one request at a time and want the answer inline.
enum HTTPTestClient {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }

        /// A header by name, case-insensitively.
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    struct TransportError: Error, CustomStringConvertible {
        var description: String
    }

    /// No proxy (tests talk to loopback only) and no caching.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    static func request(_ url: URL, method: String) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        return request
    }

    /// A POST of `body` with `headers`, signed by `signer` at the current time.
    static func signedPOST(
        _ url: URL, headers: [(name: String, value: String)], body: [UInt8], signer: SigV4Signer
    ) throws -> Response {
        var request = request(url, method: "POST")
        for header in signer.sign(method: "POST", url: url, headers: headers, body: body, date: Date()) {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        request.httpBody = Data(body)
        return try send(request)
    }

    /// A request of any method (S3's PUT of a bucket or an object), signed for S3.
    static func signedS3(_ method: String, _ url: URL, body: [UInt8] = [], signer: SigV4Signer) throws -> Response {
        var request = request(url, method: method)
        let headers = [(name: "x-amz-content-sha256", value: SHA256.hex(of: body))]
        for header in signer.sign(method: method, url: url, headers: headers, body: body, date: Date()) {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        if !body.isEmpty { request.httpBody = Data(body) }
        return try send(request)
    }

    static func send(_ request: URLRequest, timeout: TimeInterval = 10) throws -> Response {
        var request = request
        request.timeoutInterval = timeout
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            outcome.set(data: data, response: response, error: error)
            done.signal()
        }
        task.resume()
        guard done.wait(timeout: .now() + timeout + 1) == .success else {
            task.cancel()
            throw TransportError(
                description: "\(request.httpMethod ?? "") \(request.url?.absoluteString ?? ""): no answer")
        }
        return try outcome.result()
    }

    /// The callback's result, handed from URLSession's queue to the waiting test thread.
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var data: Data?
        private var response: URLResponse?
        private var error: Error?

        func set(data: Data?, response: URLResponse?, error: Error?) {
            lock.withLock { (self.data, self.response, self.error) = (data, response, error) }
        }

        func result() throws -> Response {
            lock.lock()
            defer { lock.unlock() }
            if let error { throw TransportError(description: "\(error)") }
            guard let http = response as? HTTPURLResponse else {
                throw TransportError(description: "not an HTTP response")
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                headers[String(describing: name)] = String(describing: value)
            }
            return Response(status: http.statusCode, headers: headers, body: data ?? Data())
        }
    }
}
