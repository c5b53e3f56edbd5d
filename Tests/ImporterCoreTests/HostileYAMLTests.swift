import Foundation
import XCTest
@testable import ImporterCore

/// Model and pipeline files an attacker could hand over: a document of exploding
/// aliases, or a huge one, is refused with a message naming the file, not parsed for minutes.
final class HostileYAMLTests: XCTestCase {
    /// Nine levels of nine aliases each: 387 million nodes if anything expanded them.
    static let aliasBomb: String = {
        var lines = [
            "model: Bomb", "version: 1", "entities:", "  A:", "    hashKey: id", "    attributes:",
            "      id: { type: string, values: &a [x, x, x, x, x, x, x, x, x] }",
        ]
        for level in 1...8 {
            let name = Character(Unicode.Scalar(UInt8(97 + level))),
                previous = Character(Unicode.Scalar(UInt8(96 + level)))
            lines.append(
                "      a\(level): { type: string, values: &\(name) [\(Array(repeating: "*\(previous)", count: 9).joined(separator: ", "))] }"
            )
        }
        return lines.joined(separator: "\n")
    }()

    func testAnAliasBombIsAnErrorAtTheAliasThatExplodes() {
        XCTAssertThrowsError(try ModelLoader.parse(text: Self.aliasBomb, file: "bomb.yaml")) { error in
            XCTAssertEqual((error as? ConfigurationError)?.line, 12, "\(error)")
            XCTAssertTrue("\(error)".contains("expand the document past 100000 nodes"), "\(error)")
        }
    }

    /// Found by fuzzing the pipeline loader: the same bomb used as mapping keys hung Yams, which
    /// hashed every copy. Such a document is refused before it is composed, at the alias's line.
    func testAliasesThatExplodeAreRefusedBeforeTheDocumentIsComposed() {
        var lines = ["model: m.yaml", "a: &a [x, x, x, x, x, x, x, x, x]"]
        for level in 1...8 {
            let name = Character(Unicode.Scalar(UInt8(97 + level))),
                previous = Character(Unicode.Scalar(UInt8(96 + level)))
            lines.append("\(name): &\(name) [\(Array(repeating: "*\(previous)", count: 9).joined(separator: ", "))]")
        }
        lines.append("? *i\n: keyed by the bomb")
        XCTAssertThrowsError(try PipelineLoader().parse(text: lines.joined(separator: "\n"), file: "bomb.yaml")) {
            error in
            XCTAssertTrue("\(error)".contains("expand the document past 100000 nodes"), "\(error)")
            XCTAssertEqual((error as? ConfigurationError)?.line, 7, "\(error)")
        }
        // Aliases that stay small are YAML as usual.
        let shared =
            "name: n\nmodel: m.yaml\nsources:\n  - { entity: A, path: a.csv, csv: &csv { nullValues: [NA] } }\n  - { entity: B, path: b.csv, csv: *csv }\n"
        XCTAssertNil(YAMLAliasCheck.explodingAliasLine(in: shared))
    }

    func testAHugeDocumentIsRefusedBeforeItIsParsed() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).yaml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let huge =
            "model: Huge\nversion: 1\n# " + String(repeating: "x", count: YAMLNode.maximumBytes) + "\nentities: {}\n"
        try huge.write(toFile: path, atomically: false, encoding: .utf8)
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
