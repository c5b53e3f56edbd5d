import Foundation
import TestSupport
import XCTest

/// The README's library example is the example target's source, and it runs as it says.
final class LibraryExampleTests: XCTestCase {
    func testReadmeShowsTheExampleThatIsBuiltAndItRuns() throws {
        let source = try String(contentsOf: ImporterProcess.root.appendingPathComponent("Examples/LibraryExample/main.swift"), encoding: .utf8)
        let readme = try String(contentsOf: ImporterProcess.root.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("```swift\n" + source + "```"), "README.md must show Examples/LibraryExample/main.swift verbatim")

        let directory = ImporterProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ImporterProcess.binary)
            .deletingLastPathComponent().appendingPathComponent("LibraryExample")
        process.arguments = [directory + "/example.sqlite"]
        process.currentDirectoryURL = ImporterProcess.root
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(text, """
            inserted at version 1
            renamed at version 2
            conflict: stored version 2, yours 1
            typed insert at version 1 of 2 check-ins
            left: 0 locations, 0 check-ins

            """)
    }
}
