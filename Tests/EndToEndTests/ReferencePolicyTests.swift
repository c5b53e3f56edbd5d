import Foundation
import TestSupport
import XCTest

/// References that name no item: rejected, nullified or kept, per source and relationship (docs/pipeline.md#references).
final class ReferencePolicyTests: XCTestCase {
    var directory = ""

    override func setUp() {
        directory = ImporterProcess.temporaryDirectory()
        try! """
        model: Shop
        version: 1
        entities:
          Product:
            hashKey: sku
            versionAttribute: version
            attributes: { sku: { type: string }, version: { type: int64 } }
            relationships: { receipts: { destination: Receipt, toMany: true, inverse: product } }
          Store:
            hashKey: storeId
            versionAttribute: version
            attributes: { storeId: { type: string }, version: { type: int64 } }
            relationships: { receipts: { destination: Receipt, toMany: true, inverse: store } }
          Receipt:
            hashKey: receiptId
            versionAttribute: version
            attributes:
              receiptId: { type: string }
              sku: { type: string }
              storeId: { type: string, required: true }
              version: { type: int64 }
            relationships:
              product: { destination: Product, key: sku, inverse: receipts }
              store: { destination: Store, key: storeId, inverse: receipts }
        """.write(toFile: directory + "/model.yaml", atomically: false, encoding: .utf8)
        try! "sku\np1\np2\n".write(toFile: directory + "/products.csv", atomically: false, encoding: .utf8)
        try! "storeId\ns1\n".write(toFile: directory + "/stores.csv", atomically: false, encoding: .utf8)
        try! "receiptId,sku,storeId\nr1,p1,s1\nr2,p9,s1\nr3,p1,s9\nr4,NA,s1\nr5,p8,s8\n"
            .write(toFile: directory + "/receipts.csv", atomically: false, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func run(references: String?) throws -> ImporterProcess.Result {
        let file = directory + "/pipeline.yaml"
        try """
        model: model.yaml
        sources:
          - { entity: Product, path: products.csv }
          - { entity: Store, path: stores.csv }
          - entity: Receipt
            path: receipts.csv
            csv: { nullValues: ["", "NA"] }
        \(references.map { "    references: \($0)" } ?? "")
        destination: { path: store.sqlite }
        report: { directory: reports }
        """.write(toFile: file, atomically: false, encoding: .utf8)
        return try ImporterProcess.run(["run", file])
    }

    private var receipts: String {
        get throws {
            try ImporterProcess.sqlite(
                directory + "/store.sqlite",
                "SELECT group_concat(receiptId || ':' || coalesce(sku, 'null') || ':' || storeId, ' ') FROM (SELECT * FROM Receipt ORDER BY receiptId)"
            )
        }
    }

    func testMissingReferencesAreRejectedByDefaultAndANullReferenceIsNotMissing() throws {
        let result = try run(references: nil)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try receipts, "r1:p1:s1 r4:null:s1")
        XCTAssertEqual(
            try ImporterProcess.rejects(in: directory + "/reports").map {
                "\($0.int("line")):\($0.string("field") ?? "")"
            },
            ["3:sku", "4:storeId", "6:sku"])
    }

    func testNullifiedAndKeptReferencesAreStoredAndCountedPerRelationship() throws {
        let result = try run(references: "{ product: nullify, store: keep }")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try receipts, "r1:p1:s1 r2:null:s1 r3:p1:s9 r4:null:s1 r5:null:s8")
        let report = try ImporterProcess.report(in: directory + "/reports")
        let receipt = report.objects("entities").first { $0.string("entity") == "Receipt" } ?? [:]
        let references = receipt.object("references")
        XCTAssertEqual(references.object("product").int("missing"), 2)
        XCTAssertEqual(references.object("product").string("action"), "nullify")
        XCTAssertEqual(references.object("product").objects("examples").map { $0.int("line") }, [3, 6])
        XCTAssertEqual(references.object("store").int("missing"), 2)
        XCTAssertEqual(references.object("store").string("action"), "keep")
        XCTAssertEqual(references.object("store").string("target"), "Store")
        XCTAssertTrue(
            result.stderr.contains(
                "missing references stored:\n  Receipt.product → Product  2 missing, nullified\n  Receipt.store → Store      2 missing, kept\n"
            ),
            result.stderr)
    }

    func testPoliciesThatCannotWorkAreConfigurationErrors() throws {
        let required = try run(references: "nullify")
        XCTAssertEqual(required.status, 2, required.stderr)
        XCTAssertTrue(
            required.stderr.contains(
                "pipeline.yaml:8: 'references': nullify on 'store' would store null in 'storeId', which is required"),
            required.stderr)
        let unknown = try run(references: "{ price: keep }")
        XCTAssertEqual(unknown.status, 2, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("'price' is not a relationship of Receipt"), unknown.stderr)
        let word = try run(references: "ignore")
        XCTAssertEqual(word.status, 2, word.stderr)
        XCTAssertTrue(
            word.stderr.contains(
                "pipeline.yaml:8: 'references': unknown reference policy 'ignore'; use reject, nullify or keep"),
            word.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/store.sqlite"))
    }

    /// References a run's own input does not name are looked up in the store: parents an
    /// earlier run stored are found (a chunk's lookups read one snapshot), others are missing.
    func testReferencesToItemsOfAnEarlierRunAreFoundInTheStore() throws {
        XCTAssertEqual(try run(references: "{ product: nullify, store: keep }").status, 0)
        var rows = "receiptId,sku,storeId\n"
        for number in 0..<3000 { rows += "q\(number),p\(number % 3 + 1),s\(number % 2 + 1)\n" }
        try rows.write(toFile: directory + "/more.csv", atomically: false, encoding: .utf8)
        let file = directory + "/more.yaml"
        try """
        model: model.yaml
        sources:
          - { entity: Receipt, path: more.csv, references: { product: nullify, store: keep } }
        destination: { path: store.sqlite }
        report: { directory: reports }
        """.write(toFile: file, atomically: false, encoding: .utf8)
        let result = try ImporterProcess.run(["run", file])
        XCTAssertEqual(result.status, 0, result.stderr)
        let stored = try ImporterProcess.sqlite(
            directory + "/store.sqlite",
            "SELECT count(*) || ' ' || count(sku) || ' ' || sum(sku = 'p3') || ' ' || sum(storeId = 's2') FROM Receipt WHERE receiptId LIKE 'q%'"
        )
        // p1 and p2 are stored (p3 is not: nullified); s1 is stored, s2 is not (kept).
        XCTAssertEqual(stored, "3000 2000 0 1500")
        let report = try ImporterProcess.report(in: directory + "/reports")
        let receipt = report.objects("entities").first { $0.string("entity") == "Receipt" } ?? [:]
        XCTAssertEqual(receipt.object("references").object("product").int("missing"), 1000)
        XCTAssertEqual(receipt.object("references").object("store").int("missing"), 1500)
    }
}
