import Foundation
import XCTest
@testable import ImporterCore

/// Model and pipeline files an attacker could hand over (issue 24): a document of exploding
/// aliases, or a huge one, is refused with a message naming the file, not parsed for minutes.
final class HostileYAMLTests: XCTestCase {
    /// Nine levels of nine aliases each: 387 million nodes if anything expanded them.
    static let aliasBomb: String = {
        var lines = ["model: Bomb", "version: 1", "entities:", "  A:", "    hashKey: id", "    attributes:",
                     "      id: { type: string, values: &a [x, x, x, x, x, x, x, x, x] }"]
        for level in 1...8 {
            let name = Character(Unicode.Scalar(UInt8(97 + level))), previous = Character(Unicode.Scalar(UInt8(96 + level)))
            lines.append("      a\(level): { type: string, values: &\(name) [\(Array(repeating: "*\(previous)", count: 9).joined(separator: ", "))] }")
        }
        return lines.joined(separator: "\n")
    }()

    func testAnAliasBombIsAnErrorAtItsLine() {
        XCTAssertThrowsError(try ModelLoader.parse(text: Self.aliasBomb, file: "bomb.yaml")) { error in
            XCTAssertEqual((error as? ConfigurationError)?.line, 7, "\(error)")
        }
    }

    func testAHugeDocumentIsRefusedBeforeItIsParsed() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).yaml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let huge = "model: Huge\nversion: 1\n# " + String(repeating: "x", count: YAMLNode.maximumBytes) + "\nentities: {}\n"
        try huge.write(toFile: path, atomically: true, encoding: .utf8)
        for load in [{ _ = try ModelLoader.loadFile(path) }, { _ = try PipelineLoader().load(path: path) }] {
            XCTAssertThrowsError(try load()) { error in
                XCTAssertTrue("\(error)".contains("at most \(YAMLNode.maximumBytes) are read"), "\(error)")
            }
        }
        XCTAssertThrowsError(try ModelLoader.parse(text: huge, file: "huge.yaml")) { error in
            XCTAssertTrue("\(error)".contains("at most \(YAMLNode.maximumBytes) are read"), "\(error)")
        }
    }
}
