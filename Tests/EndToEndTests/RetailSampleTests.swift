import Foundation
import TestSupport
import XCTest

/// The retail sample (SampleData/Retail, Pipelines/retail.yaml): five related tables as real
/// dumps come — one keyed by two columns, one by a key computed from three, nulls written as
/// NA, references that name nothing of each kind — loaded with each reference policy and
/// counted from outside.
final class RetailSampleTests: XCTestCase {
    var out = ""

    override func setUp() { out = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    private var store: String { out + "/retail.sqlite" }

    private func count(_ table: String) throws -> String {
        try ImporterProcess.sqlite(store, "SELECT count(*) FROM \(table)")
    }

    private func counts() throws -> [String] {
        try ["Station", "Reading", "Store", "Product", "Receipt"].map { "\($0) \(try count($0))" }
    }

    func testMissingReferencesKeptOrNullifiedAsThePipelineSays() throws {
        let result = try ImporterProcess.run(["run", "Pipelines/retail.yaml"], environment: ["OUT_DIR": out])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try counts(), ["Station 3", "Reading 4", "Store 4", "Product 3", "Receipt 8"])
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, "SELECT coalesce(sku, 'null') || ' ' || storeId FROM Receipt WHERE receiptId = 'S1-2-1001'"),
            "null S1")
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, "SELECT coalesce(sku, 'null') || ' ' || storeId FROM Receipt WHERE receiptId = 'S5-1-1002'"),
            "null S5")
        XCTAssertEqual(try ImporterProcess.sqlite(store, "SELECT stationId FROM Store WHERE storeId = 'S3'"), "ST7")
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, "SELECT typeof(stationId) FROM Store WHERE storeId = 'S4'"), "null")
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, "SELECT hex(barcode) FROM Product WHERE sku = 'P1'"),
            "343030313233343536373839")
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store,
                "SELECT typeof(temperature) FROM Reading WHERE stationId = 'ST2' AND hour = '2024-06-01T10:00:00.000Z'"),
            "null")
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, "SELECT group_concat(name, ',') FROM pragma_table_info('Reading') WHERE pk > 0 ORDER BY pk"),
            "stationId,hour")

        let rejects = try ImporterProcess.rejects(in: out + "/reports/retail")
        XCTAssertEqual(
            rejects.map { "\($0.string("entity") ?? "") \($0.int("line")) \($0.string("reason") ?? "")" },
            [
                "Reading 6 reference", "Reading 7 range", "Reading 8 duplicate", "Receipt 10 required",
                "Receipt 11 range",
            ])
        // A (hash, range) key is a JSON array in rejects.ndjson.
        XCTAssertEqual(rejects[2]["key"] as? [String], ["ST1", "2024-06-01T10:00:00.000Z"])
        let entities = try ImporterProcess.report(in: out + "/reports/retail").objects("entities")
        let receipt = entities.first { $0.string("entity") == "Receipt" }?.object("references") ?? [:]
        XCTAssertEqual(receipt.object("product").int("missing"), 2)
        XCTAssertEqual(receipt.object("store").int("missing"), 2)
        let stores = entities.first { $0.string("entity") == "Store" }?.object("references") ?? [:]
        XCTAssertEqual(stores.object("station").int("missing"), 1)
        XCTAssertEqual(stores.object("station").string("action"), "keep")

        // The same dumps again: nothing changed, nothing written.
        let again = try ImporterProcess.run(["run", "Pipelines/retail.yaml", "--quiet"], environment: ["OUT_DIR": out])
        XCTAssertEqual(again.status, 1, again.stderr)
        let totals = try ImporterProcess.report(in: out + "/reports/retail").object("totals")
        XCTAssertEqual(
            [totals.int("unchanged"), totals.int("inserted"), totals.int("updated"), totals.int("rejected")],
            [22, 0, 0, 5])
    }

    func testWithoutPoliciesEveryMissingReferenceIsRejected() throws {
        let strict = out + "/retail-strict.yaml"
        let text = try String(
            contentsOf: ImporterProcess.root.appendingPathComponent("Pipelines/retail.yaml"), encoding: .utf8
        )
        .split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.contains("references:") }
        .joined(separator: "\n")
        .replacingOccurrences(of: "../SampleData", with: ImporterProcess.root.appendingPathComponent("SampleData").path)
        try text.write(toFile: strict, atomically: false, encoding: .utf8)
        let result = try ImporterProcess.run(["run", strict, "--quiet"], environment: ["OUT_DIR": out])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try counts(), ["Station 3", "Reading 4", "Store 3", "Product 3", "Receipt 4"])
        let rejects = try ImporterProcess.rejects(in: out + "/reports/retail")
        XCTAssertEqual(
            rejects.filter { $0.string("reason") == "reference" }.map {
                "\($0.string("entity") ?? "") \($0.int("line")) \($0.string("field") ?? "")"
            },
            [
                "Reading 6 stationId", "Store 4 stationId", "Receipt 4 sku", "Receipt 7 storeId", "Receipt 8 storeId",
                "Receipt 9 storeId",
            ])
        XCTAssertTrue(result.stderr.contains("  reference  Receipt.storeId → Store      3\n"), result.stderr)
    }
}
