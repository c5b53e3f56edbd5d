import Foundation
import XCTest

/// The outside tools the tests check importer's output with: tar and the sqlite3 CLI.
enum CommandLineTools {
    /// Unpacks an archive with tar into `directory`; returns the directory.
    static func unpack(_ archive: String, into directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try run("/usr/bin/tar", ["-xf", archive, "-C", directory])
        return directory
    }

    /// An unpacked archive's manifest.json.
    static func manifest(_ directory: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))) as! [String: Any]
    }

    /// An unpacked archive's data file as its lines, sorted (a Scan's order is not SQLite's).
    static func sortedLines(_ directory: String, _ file: String) throws -> [Substring] {
        try String(contentsOfFile: directory + "/" + file, encoding: .utf8).split(separator: "\n").sorted()
    }

    /// What the sqlite3 CLI prints for `sql`, without the last newline.
    static func sqlite(_ database: String, _ sql: String) throws -> String {
        var text = try run("/usr/bin/sqlite3", [database, sql])
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// What `tool` prints; `environment` is added to the test's own.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }
}
