import Foundation
import TestSupport
import XCTest

/// docs/library.md's reference section names every public type of the library's modules, and
/// no more: a type made public (or hidden) changes the page with it.
final class LibraryReferenceTests: XCTestCase {
    static let modules = ["ImporterCore", "ImporterSQLite", "ImporterAWS", "ImporterDynamoDB"]

    func testTheReferenceNamesEveryPublicTypeOfTheLibrary() throws {
        let guide = try String(
            contentsOf: ImporterProcess.root.appendingPathComponent("docs/library.md"), encoding: .utf8)
        let reference = try XCTUnwrap(
            guide.components(separatedBy: "## Reference\n").last?.components(separatedBy: "\n## ").first)
        let named = Set(reference.matches(of: /`([A-Z][A-Za-z0-9]*)/).map { String($0.output.1) })

        var declared = Set<String>()
        for module in Self.modules {
            let folder = ImporterProcess.root.appendingPathComponent("Sources/\(module)")
            let files =
                FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in text.matches(of: /(?m)^public (?:final )?(?:struct|class|enum|protocol) ([A-Za-z0-9]+)/) {
                    declared.insert(String(match.output.1))
                }
            }
        }
        XCTAssertGreaterThan(declared.count, 20)
        XCTAssertEqual(declared.subtracting(named).sorted(), [], "public types docs/library.md#reference does not name")
        let modules = Set(Self.modules)
        XCTAssertEqual(
            named.subtracting(declared).subtracting(modules).sorted(), [],
            "types docs/library.md#reference names that are not public")
    }
}
