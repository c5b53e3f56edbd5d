import Foundation
import TestSupport
import XCTest

/// The library guide's example is the example target's source, and it prints what the guide says.
final class LibraryExampleTests: XCTestCase {
    func testTheGuideShowsTheExampleThatIsBuiltAndItPrintsWhatTheGuideSays() throws {
        let source = try String(
            contentsOf: ImporterProcess.root.appendingPathComponent("Examples/LibraryExample/main.swift"),
            encoding: .utf8)
        let guide = try String(
            contentsOf: ImporterProcess.root.appendingPathComponent("docs/library.md"), encoding: .utf8)
        XCTAssertTrue(
            guide.contains("```swift\n" + source + "```"),
            "docs/library.md must show Examples/LibraryExample/main.swift verbatim")
        let printed = try XCTUnwrap(
            guide.components(separatedBy: "It prints:\n\n```\n").last?.components(separatedBy: "```").first)

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
        XCTAssertEqual(text, printed)
    }
}
