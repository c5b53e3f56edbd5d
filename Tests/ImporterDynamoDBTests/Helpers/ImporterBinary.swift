import Foundation
import TestSupport

/// The built `importer` executable, run as a user runs it.
enum ImporterBinary {
    static var root: URL { ImporterProcess.root }

    /// A configured process, not started; its output goes to `log`.
    static func process(_ arguments: [String], environment: [String: String], log: URL) throws -> Process {
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = ImporterProcess.start(arguments, environment: environment)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        return process
    }

    /// Runs `importer ARGUMENTS` to the end: its exit status and output.
    static func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("importer-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let process = try process(arguments, environment: environment, log: log)
        try process.runToEnd {}
        return (process.terminationStatus, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// The environment that points importer at `endpoint` with `server`'s credentials.
    static func environment(_ server: MotoServer, endpoint: URL? = nil) -> [String: String] {
        [
            "AWS_ENDPOINT_URL_DYNAMODB": (endpoint ?? server.endpoint).absoluteString, "AWS_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": server.credentials.accessKeyId,
            "AWS_SECRET_ACCESS_KEY": server.credentials.secretAccessKey,
            "AWS_PROFILE": "", "AWS_SESSION_TOKEN": "",
        ]
    }

    static func report(_ directory: String) throws -> [String: Any] {
        try ImporterProcess.report(in: directory)
    }

    static func temporaryDirectory() throws -> String {
        ImporterProcess.temporaryDirectory()
    }
}

extension Dictionary where Key == String, Value == Any {
    /// `report["totals"]["inserted"]`-style reads of report.json.
    func number(_ path: String...) -> Int {
        var object: Any = self
        for key in path { object = (object as? [String: Any])?[key] ?? -1 }
        return (object as? NSNumber)?.intValue ?? -1
    }
}
