import Foundation
import TestSupport
import XCTest

/// A table with no single-column key gets one from `map.compute` (docs/pipeline.md#map).
final class ComputedKeyTests: XCTestCase {
    var directory = ""

    override func setUp() {
        directory = ImporterProcess.temporaryDirectory()
        try! """
        model: Shop
        version: 1
        entities:
          Receipt:
            hashKey: receiptId
            versionAttribute: version
            attributes:
              receiptId: { type: string }
              store: { type: string, required: true }
              total: { type: decimal }
              version: { type: int64 }
        """.write(toFile: directory + "/model.yaml", atomically: false, encoding: .utf8)
        try! """
        store,till,number,total
        S1,1,100,9.99
        S1,2,100,5.00
        S2,1,100,1.50
        S1,NA,101,2.00
        S1,1,100,9.99
        """.write(toFile: directory + "/receipts.csv", atomically: false, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func pipeline(compute: String) throws -> String {
        let file = directory + "/pipeline.yaml"
        try """
        model: model.yaml
        sources:
          - entity: Receipt
            path: receipts.csv
            csv: { nullValues: ["", "NA"] }
            map:
              compute: { \(compute) }
        destination: { path: store.sqlite }
        report: { directory: reports }
        """.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    func testAComputedKeyIdentifiesEachRowAndANullFieldMakesItNull() throws {
        let result = try ImporterProcess.run([
            "run", try pipeline(compute: "receiptId: \"{store}-{till}-{number}\""), "--quiet",
        ])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                directory + "/store.sqlite",
                "SELECT group_concat(receiptId, ' ') FROM (SELECT receiptId FROM Receipt ORDER BY receiptId)"),
            "S1-1-100 S1-2-100 S2-1-100")
        let rejects = try ImporterProcess.rejects(in: directory + "/reports")
        XCTAssertEqual(rejects.map { "\($0.int("line")):\($0.string("reason") ?? "")" }, ["5:required", "6:duplicate"])
    }

    func testAComputedAttributeTheEntityLacksIsAConfigurationError() throws {
        let file = try pipeline(compute: "receiptNo: \"{store}-{number}\"")
        let result = try ImporterProcess.run(["run", file, "--quiet"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(file):3"), result.stderr)
        XCTAssertTrue(
            result.stderr.contains("map.compute names 'receiptNo', which is not an attribute of Receipt"), result.stderr
        )
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/store.sqlite"))
    }
}
