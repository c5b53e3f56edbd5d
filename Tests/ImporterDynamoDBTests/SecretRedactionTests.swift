import Foundation
import Synchronization
import TestSupport
import XCTest

/// Secrets never printed (docs/dynamodb.md, "What is never printed"): every command that talks
/// to DynamoDB or S3 is run against a server that echoes the request (its headers, path and
/// query: the access key id, the session token, the endpoint's query) in its error body, as
/// JSON, S3's XML or an HTML page, at an endpoint URL with a user, a password and a query.
/// No secret, nor any 10 characters of one, may appear in stdout, stderr or any file written.
final class SecretRedactionTests: XCTestCase {
    static let accessKeyId = "AKIAECHOTESTKEY7Q2XZ"
    static let secretAccessKey = "wJalrEchoSecretKey/K7MDENG+bPxRfiCYzzz"
    static let sessionToken = "IQoJb3JpZ2luEchoSessionToken/Zz+9aB=tok"
    static let user = "echoUser", password = "echoPassw0rd", queryValue = "echoQueryValue"
    static let secrets = [accessKeyId, secretAccessKey, sessionToken, user, password, queryValue]

    func testNoCommandPrintsOrWritesASecretThatAnEndpointEchoes() throws {
        let out = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let local = try pipeline(
            in: out, name: "local", sources: Self.localSources,
            destination: "{ type: sqlite, path: \(out)/store/locations.sqlite }")
        let s3 = try pipeline(
            in: out, name: "s3",
            sources: """
                  - { entity: Location, path: s3://dumps/locations.csv, format: csv }
                """, destination: "{ type: sqlite, path: \(out)/s3/locations.sqlite }")
        let dynamo = try pipeline(
            in: out, name: "dynamo", sources: Self.localSources,
            destination: "{ type: dynamodb, tablePrefix: echo-, createTables: true }")
        // A store and an archive of it, written with no AWS at all.
        for command in [["run", local, "--quiet"], ["export", local, "--out", out + "/backup.tar.zst"]] {
            let result = try ImporterProcess.run(command, environment: ["REPORTS": out + "/reports-setup"])
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
        }

        let commands: [[String]] = [
            ["run", dynamo, "--quiet"],
            ["validate", dynamo, "--quiet"],
            ["inspect", dynamo],
            ["migrate", dynamo, "--to", "2"],
            ["export", dynamo, "--out", out + "/dynamo.tar.zst"],
            ["restore", out + "/backup.tar.zst", dynamo, "--quiet"],
            ["run", s3, "--quiet"],
            ["validate", s3, "--quiet"],
            ["export", local, "--out", "s3://backups/backup.tar.zst"],
            ["restore", "s3://backups/backup.tar.zst", local, "--quiet"],
        ]
        for style in EchoServer.Style.allCases {
            let server = try EchoServer(style: style)
            defer { server.stop() }
            let endpoint = "http://\(Self.user):\(Self.password)@127.0.0.1:\(server.port)/?query=\(Self.queryValue)"
            let status = ["json": 400, "xml": 403, "html": 500][style.rawValue]!
            for command in commands {
                let result = try ImporterProcess.run(
                    command, environment: environment(endpoint: endpoint, reports: "\(out)/reports-\(style)"))
                let what = "\(style): importer \(command.joined(separator: " "))"
                XCTAssertNotEqual(result.status, 0, "\(what) cannot succeed against the echo server")
                XCTAssertTrue(
                    (result.stdout + result.stderr).contains("HTTP \(status)"),
                    "\(what) reports the server's answer:\n\(result.stdout)\n\(result.stderr)")
                assertNoSecret(in: result.stdout, what + " (stdout)")
                assertNoSecret(in: result.stderr, what + " (stderr)")
                try assertNoSecretInFiles(under: out, what)
            }
        }

        // Nothing listens at the endpoint: the connection errors name it without its secrets.
        // (The HTTP client tries to connect for 10 s before it gives up: one attempt each.)
        let closed = try MotoServer.freeLoopbackPort()
        let unanswered = "http://\(Self.user):\(Self.password)@127.0.0.1:\(closed)/?query=\(Self.queryValue)"
        let dynamoOnce = try pipeline(
            in: out, name: "dynamo-once", sources: Self.localSources,
            destination: "{ type: dynamodb, tablePrefix: echo-, createTables: true }", attempts: 1)
        let s3Once = try pipeline(
            in: out, name: "s3-once",
            sources: """
                  - { entity: Location, path: s3://dumps/locations.csv, format: csv }
                """, destination: "{ type: sqlite, path: \(out)/s3/locations.sqlite }", attempts: 1)
        // The two commands wait out their connect timeouts side by side.
        let closedCommands = [["inspect", dynamoOnce], ["run", s3Once, "--quiet"]]
        let closedEnvironment = environment(endpoint: unanswered, reports: out + "/reports-closed")
        let closedResults = Mutex<[Int: Result<ImporterProcess.Result, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: closedCommands.count) { index in
            let result = Result { try ImporterProcess.run(closedCommands[index], environment: closedEnvironment) }
            closedResults.withLock { $0[index] = result }
        }
        for (index, command) in closedCommands.enumerated() {
            let result = try closedResults.withLock { $0[index]! }.get()
            let what = "closed port: importer \(command.joined(separator: " "))"
            XCTAssertNotEqual(result.status, 0, what)
            XCTAssertTrue(
                result.stderr.contains("no response from http://127.0.0.1:\(closed)/"), "\(what):\n\(result.stderr)")
            assertNoSecret(in: result.stdout + result.stderr, what)
            try assertNoSecretInFiles(under: out, what)
        }

        // An endpoint that is no http(s) URL is refused, and the message quotes it without its secrets.
        let invalid = "ftp://\(Self.user):\(Self.password)@127.0.0.1:1/?query=\(Self.queryValue)"
        for command in [["run", dynamo, "--quiet"], ["inspect", dynamo], ["run", s3, "--quiet"]] {
            let result = try ImporterProcess.run(
                command, environment: environment(endpoint: invalid, reports: out + "/reports-invalid"))
            let what = "invalid endpoint: importer \(command.joined(separator: " "))"
            XCTAssertEqual(result.status, 2, "\(what):\n\(result.stderr)")
            XCTAssertTrue(result.stderr.contains("invalid endpoint"), "\(what):\n\(result.stderr)")
            assertNoSecret(in: result.stdout + result.stderr, what)
            try assertNoSecretInFiles(under: out, what)
        }
    }

    // MARK: - Helpers

    static let localSources = """
          - { entity: Location, path: \(TestPipelines.sample.path)/locations.csv, format: csv }
          - { entity: Checkin, path: \(TestPipelines.sample.path)/checkins.ndjson, format: ndjson }
        """

    /// A pipeline of the sample model's versions (at version 1), making at most `attempts` per request.
    private func pipeline(in directory: String, name: String, sources: String, destination: String, attempts: Int = 2)
        throws -> String
    {
        let yaml = """
            name: \(name)
            model: \(TestPipelines.sample.path)/Model
            modelVersion: 1
            sources:
            \(sources)
            destination: \(destination)
            retry: { maxAttempts: \(attempts), baseDelay: 0.01, maxDelay: 0.02 }
            report: { directory: "${REPORTS}/\(name)" }
            """
        let path = "\(directory)/\(name).yaml"
        try yaml.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Every AWS variable set: distinctive keys and token, `endpoint` for both services.
    private func environment(endpoint: String, reports: String) -> [String: String] {
        [
            "AWS_ENDPOINT_URL": endpoint, "AWS_ENDPOINT_URL_DYNAMODB": "", "AWS_ENDPOINT_URL_S3": "",
            "AWS_REGION": "us-east-1", "AWS_DEFAULT_REGION": "", "AWS_PROFILE": "",
            "AWS_ACCESS_KEY_ID": Self.accessKeyId, "AWS_SECRET_ACCESS_KEY": Self.secretAccessKey,
            "AWS_SESSION_TOKEN": Self.sessionToken, "REPORTS": reports,
        ]
    }

    /// Fails when `text` holds a secret, or any 10 characters in a row of one (a secret cut
    /// short by an excerpt is still a leak).
    private func assertNoSecret(in text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        assertNoSecret(in: Array(text.utf8), what, file: file, line: line)
    }

    /// No 10 bytes of a secret (they are ASCII: 10 characters) in `bytes`; searched by
    /// bytes, since the files are searched again after every command.
    private func assertNoSecret(in bytes: [UInt8], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for secret in Self.secrets {
            let characters = Array(secret.utf8)
            let width = min(10, characters.count)
            for start in 0...(characters.count - width) {
                let piece = Array(characters[start..<(start + width)])
                guard let offset = Self.offset(of: piece, in: bytes) else { continue }
                let context = String(
                    decoding: bytes[max(0, offset - 80)..<min(bytes.count, offset + width + 80)], as: UTF8.self)
                XCTFail(
                    "\(what) shows '\(String(decoding: piece, as: UTF8.self))' of a secret: …\(context)…", file: file,
                    line: line)
                break
            }
        }
    }

    /// Where `needle` first occurs in `haystack`: its first byte found by `memchr`, the rest
    /// compared by `memcmp`.
    private static func offset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        return haystack.withUnsafeBytes { text in
            needle.withUnsafeBytes { piece -> Int? in
                let last = text.count - piece.count
                var at = 0
                while at <= last {
                    guard let found = memchr(text.baseAddress! + at, Int32(first), last - at + 1) else { return nil }
                    at = text.baseAddress!.distance(to: UnsafeRawPointer(found))
                    if memcmp(found, piece.baseAddress!, piece.count) == 0 { return at }
                    at += 1
                }
                return nil
            }
        }
    }

    /// `assertNoSecret` on every file under `directory` (reports, checkpoints, stores, archives).
    private func assertNoSecretInFiles(
        under directory: String, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        for path in files {
            let full = directory + "/" + path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            let data = try Data(contentsOf: URL(fileURLWithPath: full))
            assertNoSecret(in: [UInt8](data), "\(what): file \(path)", file: file, line: line)
        }
    }
}
