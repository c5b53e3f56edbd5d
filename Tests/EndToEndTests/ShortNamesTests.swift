import Foundation
import TestSupport
import XCTest

/// DynamoDB's table-name rule (3 to 255 characters) is not SQLite's: a two-letter entity is a
/// table of its own in an SQLite store (docs/model.md).
final class ShortNamesTests: XCTestCase {
    func testATwoLetterEntityIsStoredInSQLite() throws {
        let directory = ImporterProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try TestModels.twoLetterEntity.write(toFile: directory + "/model.yaml", atomically: false, encoding: .utf8)
        try "id\na\nb\n".write(toFile: directory + "/ab.csv", atomically: false, encoding: .utf8)
        try """
        model: model.yaml
        sources:
          - { entity: AB, path: ab.csv }
        destination: { path: store.sqlite }
        report: { directory: reports }
        """.write(toFile: directory + "/pipeline.yaml", atomically: false, encoding: .utf8)
        let result = try ImporterProcess.run(["run", directory + "/pipeline.yaml", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            try ImporterProcess.sqlite(directory + "/store.sqlite", "SELECT group_concat(id) FROM AB ORDER BY id"),
            "a,b")
    }
}
