import XCTest
@testable import ImporterArchive

/// A manifest is read strictly (docs/pipeline.md#sources): text a lax parser would take, a duplicate key that
/// could hide a second count among them, is refused before anything is restored.
final class ManifestTests: XCTestCase {
    let manifest = """
        {"formatVersion":1,"tool":{"name":"importer","version":"1"},"createdAt":"2026-01-01T00:00:00Z",
         "model":{"name":"M","version":1,"checksum":"x"},"source":"sqlite","entities":[]}
        """

    func testAStrictManifestIsRead() throws {
        XCTAssertEqual(try Manifest.decode(Array(manifest.utf8)).model.name, "M")
    }

    func testLaxOrAmbiguousManifestsAreRefused() {
        let variants = [
            manifest.replacingOccurrences(of: #""source":"sqlite""#, with: #""source":"sqlite","source":"dynamodb""#),
            manifest.replacingOccurrences(of: #""entities":[]"#, with: #""entities":[],"#),
            manifest + " // exported",
            manifest.replacingOccurrences(of: #""formatVersion":1,"#, with: #""formatVersion":01,"#),
        ]
        for text in variants {
            XCTAssertThrowsError(try Manifest.decode(Array(text.utf8)), text) { error in
                XCTAssertTrue("\(error)".hasPrefix("invalid JSON at byte"), "\(error)")
            }
        }
    }
}
