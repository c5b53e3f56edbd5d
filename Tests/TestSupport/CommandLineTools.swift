import Foundation

/// The outside tools the tests check importer's output with: tar and the sqlite3 CLI.
public enum CommandLineTools {
    /// Unpacks an archive with tar into `directory`; returns the directory.
    public static func unpack(_ archive: String, into directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try run("/usr/bin/tar", ["-xf", archive, "-C", directory])
        return directory
    }

    /// An unpacked archive's manifest.json.
    public static func manifest(_ directory: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json")))
            as! [String: Any]
    }

    /// An unpacked archive's data file as its lines, sorted (a Scan's order is not SQLite's).
    public static func sortedLines(_ directory: String, _ file: String) throws -> [Substring] {
        try String(contentsOfFile: directory + "/" + file, encoding: .utf8).split(separator: "\n").sorted()
    }

    /// What the sqlite3 CLI prints for `sql`, without the last newline.
    public static func sqlite(_ database: String, _ sql: String) throws -> String {
        var text = try run("/usr/bin/sqlite3", [database, sql])
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// A tool that exited with a failure status.
    public struct Failure: Error, CustomStringConvertible {
        public let command: String
        public let status: Int32
        public var description: String { "\(command) exited with status \(status)" }
    }

    /// What `tool` prints; `environment` is added to the test's own. Throws `Failure` when the
    /// tool fails.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        let data = try process.runToEnd { output.fileHandleForReading.readDataToEndOfFile() }
        guard process.terminationStatus == 0 else {
            throw Failure(command: ([tool] + arguments).joined(separator: " "), status: process.terminationStatus)
        }
        return String(decoding: data, as: UTF8.self)
    }
}
