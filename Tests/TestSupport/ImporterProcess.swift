import Foundation

/// Runs the built `importer` binary and the `sqlite3` CLI, as a user would.
public enum ImporterProcess {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var binary: String {
        for configuration in ["debug", "release"] {
            let path = root.appendingPathComponent(".build/\(configuration)/importer").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return root.appendingPathComponent(".build/debug/importer").path
    }

    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// Runs `importer ARGUMENTS` with extra environment variables, in `directory` (the
    /// repository by default), and waits for it.
    @discardableResult
    public static func run(_ arguments: [String], environment: [String: String] = [:], in directory: String? = nil)
        throws -> Result
    {
        try run(arguments, environment: environment, in: directory, executable: binary)
    }

    private static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil,
        executable: String
    ) throws -> Result {
        let process = start(arguments, environment: environment)
        process.executableURL = URL(fileURLWithPath: executable)
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let (out, err) = try process.runToEnd {
            (output.fileHandleForReading.readDataToEndOfFile(), errors.fileHandleForReading.readDataToEndOfFile())
        }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// Runs `importer ARGUMENTS` with every file it writes limited to `kibibytes` (a write past
    /// the limit fails with EFBIG, as on a full disk: `ulimit -f`, SIGXFSZ ignored), and waits.
    public static func runWithFileSizeLimit(_ kibibytes: Int, _ arguments: [String]) throws -> Result {
        try run(
            ["-c", "trap '' XFSZ; ulimit -f \(kibibytes); exec \"$0\" \"$@\"", binary] + arguments,
            executable: "/bin/bash")
    }

    /// A configured, not yet started `importer` process.
    public static func start(_ arguments: [String], environment: [String: String] = [:]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = root
        return process
    }

    /// `sqlite3 -separator '|' DATABASE QUERY`, trailing newline removed.
    public static func sqlite(_ database: String, _ query: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-separator", "|", database, query]
        let output = Pipe()
        process.standardOutput = output
        let data = try process.runToEnd { output.fileHandleForReading.readDataToEndOfFile() }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// The report.json of a run, as JSON objects.
    public static func report(in directory: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/report.json"))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    /// The lines of rejects.ndjson, as JSON objects.
    public static func rejects(in directory: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: directory + "/rejects.ndjson", encoding: .utf8)
        return try text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    public static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "importer-e2e-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Reads of report.json and rejects.ndjson objects: -1, empty or nil where a key is missing.
extension Dictionary where Key == String, Value == Any {
    public func int(_ key: String) -> Int { (self[key] as? NSNumber)?.intValue ?? -1 }
    public func object(_ key: String) -> [String: Any] { self[key] as? [String: Any] ?? [:] }
    public func objects(_ key: String) -> [[String: Any]] { self[key] as? [[String: Any]] ?? [] }
    public func string(_ key: String) -> String? { self[key] as? String }
}
