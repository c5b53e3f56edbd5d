import Foundation
import TestSupport
import XCTest

/// Document sources (docs/documents.md): nested JSON into parent and child entities, the
/// document rejected whole or in part, and re-loading a document replacing its children.
final class DocumentTests: XCTestCase {
    var directory = ""
    static let model = ImporterProcess.root.appendingPathComponent("SampleData/Orders/Model").path

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func query(_ sql: String) throws -> String { try ImporterProcess.sqlite(directory + "/store.sqlite", sql) }

    /// Runs the Orders model on `orders` (NDJSON lines), lines keyed by (order, position).
    private func run(
        _ orders: [String], documents: String = "whole", mode: String = "upsert", replaceLines: Bool = true,
        replaceAdjustments: Bool = false, destination: String = "{ path: store.sqlite }"
    ) throws -> ImporterProcess.Result {
        try (orders.joined(separator: "\n") + "\n").write(
            toFile: directory + "/orders.ndjson", atomically: false, encoding: .utf8)
        try """
        model: \(Self.model)
        sources:
          - entity: Order
            path: orders.ndjson
            documents: \(documents)
            map: { fields: { currency: currency.code } }
            children:
              lines:
                entity: Line
                position: lineNo
                replace: \(replaceLines)
                children:
                  adjustments:
                    { entity: Adjustment, replace: \(replaceAdjustments), map: { rename: { _id: adjustmentId } } }
        destination: \(destination)
        write: { mode: \(mode) }
        errors: { maxErrorRatio: 1 }
        report: { directory: reports }
        """.write(toFile: directory + "/pipeline.yaml", atomically: false, encoding: .utf8)
        return try ImporterProcess.run(["run", directory + "/pipeline.yaml", "--quiet"])
    }

    private func order(_ id: String, lines: [String]) -> String {
        "{\"orderId\":\"\(id)\",\"placedAt\":\"2026-03-02T09:15:00Z\",\"customer\":\"c\",\"currency\":{\"code\":\"EUR\"},\"lines\":[\(lines.joined(separator: ","))]}"
    }

    private func line(_ sku: String, quantity: Int = 1, adjustments: [String] = []) -> String {
        let list = adjustments.map { "{\"_id\":{\"$oid\":\"\($0)\"},\"amount\":-1}" }.joined(separator: ",")
        return "{\"sku\":\"\(sku)\",\"quantity\":\(quantity),\"price\":1.5,\"adjustments\":[\(list)]}"
    }

    private func counts(_ entity: String) throws -> [String: Any] {
        let report = try ImporterProcess.report(in: directory + "/reports")
        return report.objects("entities").first { $0.string("entity") == entity }?.object("counts") ?? [:]
    }

    private func summary(_ entity: String) throws -> String {
        let counts = try counts(entity)
        return ["read", "inserted", "updated", "unchanged", "deleted", "rejected"].map { "\($0) \(counts.int($0))" }
            .joined(separator: ", ")
    }

    func testTheSampleOrdersLoadIntoThreeEntitiesAndTheBadOrderIsRejectedWhole() throws {
        let result = try ImporterProcess.run(
            ["run", "Pipelines/orders.yaml", "--quiet"], environment: ["OUT_DIR": directory],
            in: ImporterProcess.root.path)
        XCTAssertEqual(result.status, 1, result.stderr)
        let reports = directory + "/reports/orders"
        let report = try ImporterProcess.report(in: reports)
        let entities = report.objects("entities").map {
            "\($0.string("entity")!) \($0.object("counts").int("read"))/\($0.object("counts").int("inserted"))/\($0.object("counts").int("rejected"))"
        }
        XCTAssertEqual(entities, ["Order 4/3/1", "Line 6/4/2", "Adjustment 4/4/0"])
        let documents = report.object("documents")
        XCTAssertEqual(
            ["read", "rejected", "records", "recordsRejected"].map { documents.int($0) }, [4, 1, 14, 3], "\(documents)")
        XCTAssertTrue(
            result.stderr.contains("documents: 4 read, 1 rejected whole; 3 of their 14 records rejected"), result.stderr
        )
        let rejects = try ImporterProcess.rejects(in: reports)
        XCTAssertEqual(rejects.count, 1, "one line for the rejected document: \(rejects)")
        XCTAssertEqual(rejects[0].string("entity"), "Order")
        XCTAssertEqual(rejects[0]["key"] as? String, "A-1003")
        XCTAssertEqual(rejects[0].objects("problems").map { $0.string("path") }, ["/lines/1/quantity"])
        XCTAssertTrue(rejects[0].string("raw")!.hasPrefix("{\n    \"orderId\": \"A-1003\""))
        let store = directory + "/orders.sqlite"
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, "SELECT currency || ' ' || shipTo FROM \"Order\" WHERE orderId = 'A-1001'"),
            "EUR {\"street\":\"12 Rue de la Paix\",\"city\":\"Paris\",\"zip\":\"75002\"}")
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, "SELECT group_concat(orderId || '/' || lineNo || ' ' || sku || ' x' || quantity, '; ') FROM Line"
            ),
            "A-1001/0 TEA-01 x2; A-1001/1 CUP-07 x1; A-1002/0 KETTLE-2 x1; A-1004/0 MUG-12 x4")
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store,
                "SELECT adjustmentId || ' ' || lineNo || ' ' || appliedAt FROM Adjustment WHERE orderId = 'A-1001'"),
            "65f1a2b3c4d5e6f708192a01 0 2026-03-02T09:15:00.000Z")
    }

    func testReloadingADocumentReplacesItsChildrenAndLeavesOtherParentsAlone() throws {
        let first = try run([
            order("O1", lines: [line("a", adjustments: ["a1"]), line("b"), line("c", adjustments: ["c1", "c2"])]),
            order("O2", lines: [line("z")]),
        ])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try query("SELECT count(*) FROM Line"), "4")
        XCTAssertEqual(try query("SELECT count(*) FROM Adjustment"), "3")

        // O1 again: line 0 changed, line 1 the same, line 2 gone (its adjustments cascade); O2 not in the file.
        let again = try run([order("O1", lines: [line("a", quantity: 5, adjustments: ["a1"]), line("b")])])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try summary("Line"), "read 2, inserted 0, updated 1, unchanged 1, deleted 1, rejected 0")
        XCTAssertEqual(
            try query("SELECT group_concat(orderId || '/' || lineNo || ' ' || sku || ' v' || version, '; ') FROM Line"),
            "O1/0 a v2; O1/1 b v1; O2/0 z v1")
        XCTAssertEqual(try query("SELECT group_concat(adjustmentId) FROM Adjustment"), "a1")
        let deletes = try String(contentsOfFile: directory + "/reports/deletes.ndjson", encoding: .utf8)
        XCTAssertTrue(deletes.contains("\"entity\":\"Line\",\"key\":[\"O1\",\"2\"]"), deletes)

        // A child entity is selected with its root, which reads the file.
        let selected = try ImporterProcess.run(["run", directory + "/pipeline.yaml", "--entities", "Line"])
        XCTAssertEqual(selected.status, 2, selected.stderr)
        XCTAssertTrue(selected.stderr.contains("Line is loaded from the documents of Order"), selected.stderr)

        // replace: false keeps lines that left the document; insert mode never replaces.
        XCTAssertEqual(
            try run([order("O1", lines: [line("a", quantity: 5, adjustments: ["a1"])])], replaceLines: false).status, 0)
        XCTAssertEqual(try query("SELECT count(*) FROM Line WHERE orderId = 'O1'"), "2")
        XCTAssertEqual(try run([order("O3", lines: [])], mode: "insert").status, 0)
        XCTAssertEqual(try query("SELECT count(*) FROM Line"), "3")
    }

    func testChildrenKeyedByTheirOwnIdsAreReplacedUnlessTheRunWroteEveryStoredOne() throws {
        func orders(_ first: [String]) -> [String] {
            [order("O1", lines: [line("a", adjustments: first)]), order("O2", lines: [line("z", adjustments: ["z1"])])]
        }
        XCTAssertEqual(try run(orders(["a1", "a2"]), replaceAdjustments: true).status, 0)
        // a2 replaced by a3: as many adjustments written as stored before, but not the same ones.
        let replaced = try run(orders(["a1", "a3"]), replaceAdjustments: true)
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertEqual(try summary("Adjustment"), "read 3, inserted 1, updated 0, unchanged 2, deleted 1, rejected 0")
        XCTAssertEqual(
            try query("SELECT group_concat(adjustmentId) FROM (SELECT adjustmentId FROM Adjustment ORDER BY 1)"),
            "a1,a3,z1")
        // Every stored adjustment written again (a line changed): none is read, none deleted.
        var changed = orders(["a1", "a3"])
        changed[1] = order("O2", lines: [line("z", quantity: 2, adjustments: ["z1"])])
        let same = try run(changed, replaceAdjustments: true)
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertEqual(try summary("Adjustment"), "read 3, inserted 0, updated 0, unchanged 3, deleted 0, rejected 0")
        // O1 alone, without a3: a3 goes, O2's z1 stays.
        XCTAssertEqual(
            try run([order("O1", lines: [line("a", adjustments: ["a1"])])], replaceAdjustments: true).status, 0)
        XCTAssertEqual(try summary("Adjustment"), "read 1, inserted 0, updated 0, unchanged 1, deleted 1, rejected 0")
        XCTAssertEqual(
            try query("SELECT group_concat(adjustmentId) FROM (SELECT adjustmentId FROM Adjustment ORDER BY 1)"),
            "a1,z1")
    }

    func testTheLinesOfManyOrdersAreCountedFirstAndReplacedWhenOneLeft() throws {
        // Enough orders that their lines are counted before they are read (256 parents or more).
        func orders(dropping dropped: Set<String>) -> [String] {
            (0..<300).map { number in
                let id = "O\(number)"
                return order(id, lines: dropped.contains(id) ? [line("a")] : [line("a"), line("b")])
            }
        }
        XCTAssertEqual(try run(orders(dropping: [])).status, 0)
        XCTAssertEqual(try query("SELECT count(*) FROM Line"), "600")
        // O7 drops a line: fewer written than stored, so they are read and O7/1 is deleted.
        XCTAssertEqual(try run(orders(dropping: ["O7"])).status, 0)
        XCTAssertEqual(try summary("Line"), "read 599, inserted 0, updated 0, unchanged 599, deleted 1, rejected 0")
        XCTAssertEqual(try query("SELECT count(*) FROM Line WHERE orderId = 'O7'"), "1")
        // The same again: as many written as stored, nothing read, nothing deleted.
        XCTAssertEqual(try run(orders(dropping: ["O7"])).status, 0)
        XCTAssertEqual(try summary("Line"), "read 599, inserted 0, updated 0, unchanged 599, deleted 0, rejected 0")
        // O7's line back, O8's gone: as many read as stored before, but not the same ones.
        XCTAssertEqual(try run(orders(dropping: ["O8"])).status, 0)
        XCTAssertEqual(try summary("Line"), "read 599, inserted 1, updated 0, unchanged 598, deleted 1, rejected 0")
        XCTAssertEqual(
            try query(
                "SELECT group_concat(line) FROM (SELECT orderId || '/' || lineNo AS line FROM Line WHERE orderId IN ('O7', 'O8') ORDER BY 1)"
            ),
            "O7/0,O7/1,O8/0")
    }

    func testPartialRejectsOnlyTheBadElementAndItsChildrenAndKeepsTheirStoredItems() throws {
        XCTAssertEqual(try run([order("O1", lines: [line("a"), line("b", adjustments: ["b1"])])]).status, 0)
        // Line 1 is now invalid (quantity 0): under `partial` it and its adjustment are rejected,
        // the order and line 0 are written, and the stored line 1 is not deleted as vanished.
        let result = try run(
            [order("O1", lines: [line("a", quantity: 2), line("b", quantity: 0, adjustments: ["b1"])])],
            documents: "partial")
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try summary("Line"), "read 2, inserted 0, updated 1, unchanged 0, deleted 0, rejected 1")
        XCTAssertEqual(try summary("Adjustment"), "read 1, inserted 0, updated 0, unchanged 0, deleted 0, rejected 1")
        XCTAssertTrue(
            result.stderr.contains("documents: 1 read, 0 rejected whole; 2 of their 4 records rejected"), result.stderr)
        let rejects = try ImporterProcess.rejects(in: directory + "/reports")
        XCTAssertEqual(
            rejects.map { $0.string("entity") }, ["Line"], "the element is listed, its adjustment only counted")
        XCTAssertTrue(rejects[0].string("message")!.hasPrefix("/lines/1: "), "\(rejects[0])")
        XCTAssertEqual(rejects[0]["key"] as? [String], ["O1", "1"])
        XCTAssertEqual(try query("SELECT group_concat(lineNo || ' x' || quantity, '; ') FROM Line"), "0 x2; 1 x1")
        XCTAssertEqual(try query("SELECT count(*) FROM Adjustment"), "1")
    }

    func testAChildRejectedOnlyWithItsLineDoesNotStopOtherOrdersChildrenBeingReplaced() throws {
        let first = [
            order("O1", lines: [line("a"), line("b", adjustments: ["b1"])]),
            order("O2", lines: [line("c", adjustments: ["c1"]), line("d", adjustments: ["d1"])]),
        ]
        XCTAssertEqual(try run(first, replaceAdjustments: true).status, 0)
        // O1's line 1 is now invalid: its adjustment b1 is rejected with it, never read, so its
        // key is not known. O2 drops line 1: it and its adjustment are replaced away all the same.
        let result = try run(
            [
                order("O1", lines: [line("a"), line("b", quantity: 0, adjustments: ["b1"])]),
                order("O2", lines: [line("c", adjustments: ["c1"])]),
            ], documents: "partial", replaceAdjustments: true)
        XCTAssertEqual(result.status, 1, result.stderr)
        let report = try ImporterProcess.report(in: directory + "/reports")
        XCTAssertNil(report.object("deletes").string("refused"), "\(report)")
        XCTAssertEqual(try summary("Line"), "read 3, inserted 0, updated 0, unchanged 2, deleted 1, rejected 1")
        XCTAssertEqual(try summary("Adjustment"), "read 2, inserted 0, updated 0, unchanged 1, deleted 1, rejected 1")
        XCTAssertEqual(
            try query("SELECT group_concat(orderId || '/' || lineNo || ' ' || sku, '; ') FROM Line"),
            "O1/0 a; O1/1 b; O2/0 c")
        XCTAssertEqual(
            try query("SELECT group_concat(adjustmentId) FROM (SELECT adjustmentId FROM Adjustment ORDER BY 1)"),
            "b1,c1")
    }

    func testADuplicateKeyInADocumentRejectsItWholeAndLeavesNoKeyBehind() throws {
        // O2's second line repeats O1's adjustment id: the key stage rejects O2 whole, and the
        // later, valid O2 is then the first of its key, not a duplicate.
        let result = try run([
            order("O1", lines: [line("a", adjustments: ["x1"])]),
            order("O2", lines: [line("b"), line("c", adjustments: ["x2", "x1"])]),
            order("O2", lines: [line("d", adjustments: ["x3"])]),
        ])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try summary("Order"), "read 3, inserted 2, updated 0, unchanged 0, deleted 0, rejected 1")
        XCTAssertEqual(try summary("Line"), "read 4, inserted 2, updated 0, unchanged 0, deleted 0, rejected 2")
        XCTAssertEqual(try summary("Adjustment"), "read 4, inserted 2, updated 0, unchanged 0, deleted 0, rejected 2")
        let listed = try rejectedOrder(
            "O2", stage: "validate", reason: "duplicate", paths: ["/lines/1/adjustments/1/adjustmentId"])
        XCTAssertEqual(listed.int("line"), 2)
        XCTAssertTrue(
            listed.string("message")!.hasPrefix("the document is rejected whole (documents: whole), 5 record(s)"),
            listed.string("message")!)
        XCTAssertEqual(
            try query("SELECT group_concat(orderId || '/' || lineNo || ' ' || sku, '; ') FROM Line"), "O1/0 a; O2/0 d")
        XCTAssertEqual(
            try query(
                "SELECT group_concat(adjustmentId || ' ' || orderId, '; ') FROM (SELECT * FROM Adjustment ORDER BY 1)"),
            "x1 O1; x3 O2")
    }

    func testUnderPartialADuplicateElementIsRejectedWithTheElementsUnderIt() throws {
        // Lines keyed by their own number: O1 holds line 0 twice. The second goes, with its
        // adjustment; the first and its adjustment, and line 1, are written.
        try """
        {"orderId":"O1","placedAt":"2026-03-02T09:15:00Z","customer":"c","currency":{"code":"EUR"},"lines":[\
        {"n":0,"sku":"a","quantity":1,"price":1.5,"adjustments":[{"_id":"y1","amount":-1}]},\
        {"n":0,"sku":"b","quantity":1,"price":1.5,"adjustments":[{"_id":"y2","amount":-1}]},\
        {"n":1,"sku":"c","quantity":1,"price":1.5,"adjustments":[]}]}

        """.write(toFile: directory + "/orders.ndjson", atomically: false, encoding: .utf8)
        try """
        model: \(Self.model)
        sources:
          - entity: Order
            path: orders.ndjson
            documents: partial
            map: { fields: { currency: currency.code } }
            children:
              lines:
                entity: Line
                map: { rename: { n: lineNo } }
                children:
                  adjustments: { entity: Adjustment, map: { rename: { _id: adjustmentId } } }
        destination: { path: store.sqlite }
        errors: { maxErrorRatio: 1 }
        report: { directory: reports }
        """.write(toFile: directory + "/pipeline.yaml", atomically: false, encoding: .utf8)
        let result = try ImporterProcess.run(["run", directory + "/pipeline.yaml", "--quiet"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try summary("Order"), "read 1, inserted 1, updated 0, unchanged 0, deleted 0, rejected 0")
        XCTAssertEqual(try summary("Line"), "read 3, inserted 2, updated 0, unchanged 0, deleted 0, rejected 1")
        XCTAssertEqual(try summary("Adjustment"), "read 2, inserted 1, updated 0, unchanged 0, deleted 0, rejected 1")
        let rejects = try ImporterProcess.rejects(in: directory + "/reports")
        XCTAssertEqual(
            rejects.map { $0.string("entity") }, ["Line"], "the element is listed, its adjustment only counted")
        XCTAssertEqual(rejects[0].string("reason"), "duplicate")
        XCTAssertTrue(rejects[0].string("message")!.hasPrefix("/lines/1: "), "\(rejects[0])")
        XCTAssertEqual(try query("SELECT group_concat(lineNo || ' ' || sku, '; ') FROM Line"), "0 a; 1 c")
        XCTAssertEqual(try query("SELECT group_concat(adjustmentId) FROM Adjustment"), "y1")
    }

    func testAKeyAlreadyStoredInInsertModeRejectsItsDocumentWholeBeforeAnythingOfItIsWritten() throws {
        XCTAssertEqual(try run([order("O1", lines: [line("a", adjustments: ["x1"])])]).status, 0)
        // O2's adjustment x1 is stored (under O1): mode insert never overwrites, so O2 is
        // rejected whole and nothing of it is written; O3 is.
        let result = try run(
            [
                order("O2", lines: [line("b"), line("c", adjustments: ["x1"])]),
                order("O3", lines: [line("d", adjustments: ["x3"])]),
            ], mode: "insert")
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try summary("Order"), "read 2, inserted 1, updated 0, unchanged 0, deleted 0, rejected 1")
        XCTAssertEqual(try summary("Line"), "read 3, inserted 1, updated 0, unchanged 0, deleted 0, rejected 2")
        XCTAssertEqual(try summary("Adjustment"), "read 2, inserted 1, updated 0, unchanged 0, deleted 0, rejected 1")
        _ = try rejectedOrder("O2", stage: "write", reason: "duplicate", paths: ["/lines/1/adjustments/0"])
        XCTAssertEqual(
            try query("SELECT group_concat(orderId) FROM (SELECT orderId FROM \"Order\" ORDER BY 1)"), "O1,O3")
        XCTAssertEqual(try query("SELECT group_concat(orderId || '/' || lineNo, '; ') FROM Line"), "O1/0; O3/0")
        XCTAssertEqual(
            try query("SELECT group_concat(adjustmentId || ' ' || orderId, '; ') FROM Adjustment"), "x1 O1; x3 O3")
    }

    func testAVersionConflictRejectsItsDocumentWholeAndItsStoredChildrenStay() throws {
        XCTAssertEqual(
            try run([order("O1", lines: [line("a"), line("b"), line("c")]), order("O2", lines: [line("d")])]).status, 0)
        // O1's first line is based on version 7, stored at 1: a conflict (mergePolicy error).
        // O1 is rejected whole: nothing of it is written, and its stored line c, gone from the
        // document, is not deleted. O2's line changes.
        let based = line("a", quantity: 2).replacingOccurrences(of: "\"sku\"", with: "\"version\":7,\"sku\"")
        let result = try run([order("O1", lines: [based, line("b")]), order("O2", lines: [line("d", quantity: 3)])])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try summary("Order"), "read 2, inserted 0, updated 0, unchanged 1, deleted 0, rejected 1")
        XCTAssertEqual(try summary("Line"), "read 3, inserted 0, updated 1, unchanged 0, deleted 0, rejected 2")
        _ = try rejectedOrder("O1", stage: "write", reason: "conflict", paths: ["/lines/0"])
        XCTAssertEqual(
            try query(
                "SELECT group_concat(orderId || '/' || lineNo || ' ' || sku || ' x' || quantity || ' v' || version, '; ') FROM Line"
            ),
            "O1/0 a x1 v1; O1/1 b x1 v1; O1/2 c x1 v1; O2/0 d x3 v2")
    }

    func testUnderPartialAVersionConflictRejectsTheLineWithItsAdjustmentsAndWritesTheRest() throws {
        XCTAssertEqual(try run([order("O1", lines: [line("a", adjustments: ["a1"]), line("b")])]).status, 0)
        // Line 0 changes, based on version 7 (stored at 1): under partial it and its adjustment
        // are rejected before anything is written; line 1's change and the order are written.
        let based = line("a", quantity: 2, adjustments: ["a1"])
            .replacingOccurrences(of: "{\"sku\"", with: "{\"version\":7,\"sku\"")
        let result = try run([order("O1", lines: [based, line("b", quantity: 3)])], documents: "partial")
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try summary("Line"), "read 2, inserted 0, updated 1, unchanged 0, deleted 0, rejected 1")
        XCTAssertEqual(try summary("Adjustment"), "read 1, inserted 0, updated 0, unchanged 0, deleted 0, rejected 1")
        let rejects = try ImporterProcess.rejects(in: directory + "/reports")
        XCTAssertEqual(rejects.map { $0.string("entity") }, ["Line"], "the line is listed, its adjustment counted")
        XCTAssertEqual(rejects[0].string("reason"), "conflict")
        XCTAssertTrue(rejects[0].string("message")!.hasPrefix("/lines/0: "), "\(rejects[0])")
        XCTAssertEqual(
            try query("SELECT group_concat(lineNo || ' x' || quantity || ' v' || version, '; ') FROM Line"),
            "0 x1 v1; 1 x3 v2")
        XCTAssertEqual(try query("SELECT adjustmentId || ' v' || version FROM Adjustment"), "a1 v1")
    }

    func testAChildThatDoesNotFitTheModelOrTheDestinationIsRefusedBeforeAnythingIsWritten() throws {
        try """
        model: \(Self.model)
        sources:
          - entity: Order
            path: orders.ndjson
            children:
              lines: { entity: Lines }
        """.write(toFile: directory + "/bad.yaml", atomically: false, encoding: .utf8)
        try "{}\n".write(toFile: directory + "/orders.ndjson", atomically: false, encoding: .utf8)
        let unknown = try ImporterProcess.run(["run", directory + "/bad.yaml"])
        XCTAssertEqual(unknown.status, 2, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("bad.yaml:6"), unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("'Lines' (children: lines) is not an entity"), unknown.stderr)

        // On DynamoDB, adjustments (keyed by their own id) could only be replaced per line by a
        // Scan: the pipeline must say replace: false for them. Refused before any request.
        try """
        model: \(Self.model)
        sources:
          - entity: Order
            path: orders.ndjson
            children:
              lines:
                entity: Line
                position: lineNo
                children:
                  adjustments: { entity: Adjustment, map: { rename: { _id: adjustmentId } } }
        destination: { type: dynamodb, endpoint: "http://127.0.0.1:9", region: us-east-1 }
        """.write(toFile: directory + "/dynamodb.yaml", atomically: false, encoding: .utf8)
        let dynamo = try ImporterProcess.run(
            ["run", directory + "/dynamodb.yaml"],
            environment: ["AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "y"])
        XCTAssertEqual(dynamo.status, 2, dynamo.stderr)
        XCTAssertTrue(dynamo.stderr.contains("dynamodb.yaml:10"), dynamo.stderr)
        XCTAssertTrue(dynamo.stderr.contains("set 'replace: false' for this child"), dynamo.stderr)
    }

    /// A pipeline of the Orders model over `input` into `store`, in batches of `batchSize`.
    func pipeline(_ name: String, input: String, store: String, batchSize: Int) throws -> String {
        try """
        model: \(Self.model)
        sources:
          - entity: Order
            path: \(input)
            map: { fields: { currency: currency.code } }
            children:
              lines:
                entity: Line
                position: lineNo
                children:
                  adjustments: { entity: Adjustment, map: { rename: { _id: adjustmentId } } }
        destination: { path: \(store) }
        write: { batchSize: \(batchSize) }
        report: { directory: reports-\(name) }
        """.write(toFile: directory + "/\(name).yaml", atomically: false, encoding: .utf8)
        return directory + "/\(name).yaml"
    }

    /// Records of the documents' inputs done according to the store's checkpoint (0 without one).
    func checkpointedRecords(_ store: String) -> Int {
        checkpointedInputs(store).values.reduce(0, +)
    }

    /// The one line rejects.ndjson has, for an order rejected whole: its key, the stage and
    /// reason of its first problem, and every problem's path.
    private func rejectedOrder(
        _ key: String, stage: String, reason: String, paths: [String], file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> [String: Any] {
        let rejects = try ImporterProcess.rejects(in: directory + "/reports")
        XCTAssertEqual(rejects.count, 1, "one line for the rejected document: \(rejects)", file: file, line: line)
        let listed = try XCTUnwrap(rejects.first, file: file, line: line)
        XCTAssertEqual(listed.string("entity"), "Order", file: file, line: line)
        XCTAssertEqual(listed["key"] as? String, key, file: file, line: line)
        XCTAssertEqual(listed.string("stage"), stage, file: file, line: line)
        XCTAssertEqual(listed.string("reason"), reason, file: file, line: line)
        XCTAssertEqual(listed.objects("problems").map { $0.string("path") }, paths, file: file, line: line)
        return listed
    }

    /// Per entity, the records of its input done according to the store's checkpoint.
    private func checkpointedInputs(_ store: String) -> [String: Int] {
        let state = (try? ImporterProcess.sqlite(store, "SELECT state FROM _importer_checkpoint")) ?? ""
        guard let data = state.data(using: .utf8), !state.isEmpty,
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        var done: [String: Int] = [:]
        for input in object.objects("inputs") {
            let path = input.string("path") ?? ""
            done[path.contains("#") ? String(path.split(separator: "#").last!) : "Order"] = input.int("nextRecord")
        }
        return done
    }

    func dump(_ store: String) throws -> String {
        try ["\"Order\" ORDER BY orderId", "Line ORDER BY orderId, lineNo", "Adjustment ORDER BY adjustmentId"].map {
            try ImporterProcess.sqlite(store, "SELECT * FROM " + $0)
        }.joined(separator: "\n")
    }

    func testARunKilledAfterItsChildrenWereReplacedResumesReportingThoseDeletes() throws {
        let (store, pipeline) = try storeWhoseRefreshReplacesLinesBeforeABulkBuild()
        let killed = try ImporterProcess.kill(["run", pipeline, "--quiet"]) { _ in try linesReplaced(store) }
        XCTAssertTrue(killed, "the run finished before it could be killed; make it larger")
        let last = try ImporterProcess.run(["run", pipeline, "--resume", "--quiet"])
        XCTAssertEqual(last.status, 0, last.stderr)
        try assertTheRefreshReported(store)
    }

    func testASignalAfterTheChildrenWereReplacedLetsTheRunFinishSucceeded() throws {
        let (store, pipeline) = try storeWhoseRefreshReplacesLinesBeforeABulkBuild()
        let run = try ImporterProcess.signal(["run", pipeline, "--quiet"], SIGTERM) { _ in try linesReplaced(store) }
        XCTAssertTrue(run.sent, "the run finished before the signal; make it larger")
        XCTAssertEqual(run.status, 0, "nothing was left to stop")
        XCTAssertEqual(try ImporterProcess.report(in: directory + "/reports-resumed").string("status"), "succeeded")
        try assertTheRefreshReported(store)
    }

    /// A store of 300 orders of 2 lines, and the pipeline of its refresh, which drops the second
    /// line of the first 100 and brings 30,000 adjustments. Those load in bulk (their table is
    /// empty): their table is built after the lines are replaced.
    private func storeWhoseRefreshReplacesLinesBeforeABulkBuild() throws -> (store: String, pipeline: String) {
        func orders(refreshed: Bool) -> [String] {
            (0..<300).map { number in
                order(
                    String(format: "O%05d", number),
                    lines: (0..<(refreshed && number < 100 ? 1 : 2)).map { position in
                        line(
                            "sku-\(position)",
                            adjustments: refreshed
                                ? (0..<60).map { String(format: "%08x%08x%08x", number, position, $0) } : [])
                    })
            }
        }
        let store = directory + "/resumed.sqlite"
        try (orders(refreshed: false).joined(separator: "\n") + "\n").write(
            toFile: directory + "/base.ndjson", atomically: false, encoding: .utf8)
        try (orders(refreshed: true).joined(separator: "\n") + "\n").write(
            toFile: directory + "/refresh.ndjson", atomically: false, encoding: .utf8)
        XCTAssertEqual(
            try ImporterProcess.run([
                "run", try pipeline("base", input: "base.ndjson", store: store, batchSize: 50_000), "--quiet",
            ]).status, 0)
        return (store, try pipeline("resumed", input: "refresh.ndjson", store: store, batchSize: 5_000))
    }

    /// Whether the refresh's replace phase has committed: 100 of the 600 lines are gone.
    private func linesReplaced(_ store: String) throws -> Bool {
        try ImporterProcess.sqlite(store, "SELECT count(*) FROM Line") == "500"
    }

    /// The refresh's report and deletes.ndjson list its 100 deleted lines, each once, and its
    /// adjustments are stored.
    private func assertTheRefreshReported(_ store: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let report = try ImporterProcess.report(in: directory + "/reports-resumed")
        XCTAssertEqual(report.object("deletes").object("deleted").int("Line"), 100, "\(report)", file: file, line: line)
        let lineCounts = report.objects("entities").first { $0.string("entity") == "Line" }?.object("counts")
        XCTAssertEqual(lineCounts?.int("deleted"), 100, file: file, line: line)
        let deletes = try String(contentsOfFile: directory + "/reports-resumed/deletes.ndjson", encoding: .utf8)
            .split(separator: "\n")
        XCTAssertEqual(deletes.count, 100, "every deleted line", file: file, line: line)
        XCTAssertEqual(Set(deletes).count, 100, "each once", file: file, line: line)
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, "SELECT count(*) FROM Adjustment"), "30000", file: file, line: line)
        XCTAssertEqual(try ImporterProcess.sqlite(store, "PRAGMA integrity_check"), "ok", file: file, line: line)
    }

    func testAKilledDocumentRunResumesToTheStoreAndCountsOfAnUninterruptedOne() throws {
        // Order 5 is rejected whole, its last line kept (`loadOrdersAndTheirRefresh`).
        let (base, reference) = try loadOrdersAndTheirRefresh()

        let store = directory + "/resumed.sqlite"
        try FileManager.default.copyItem(atPath: base, toPath: store)
        let resumed = try pipeline("resumed", input: "refresh.ndjson", store: store, batchSize: 2_000)
        let killed = try ImporterProcess.kill(["run", resumed, "--resume", "--quiet"]) { _ in
            checkpointedRecords(store) >= 6_000
        }
        XCTAssertTrue(killed, "the run finished before it could be killed; make it larger")
        XCTAssertGreaterThanOrEqual(checkpointedRecords(store), 6_000)
        // Commits fall between documents: the checkpoint holds whole orders, 6 lines and 6
        // adjustments each.
        let done = checkpointedInputs(store)
        XCTAssertGreaterThan(done["Order", default: 0], 0, "\(done)")
        XCTAssertEqual(done["Line"], 6 * done["Order", default: 0], "\(done)")
        XCTAssertEqual(done["Adjustment"], 6 * done["Order", default: 0], "\(done)")
        let last = try ImporterProcess.run(["run", resumed, "--resume", "--quiet"])
        XCTAssertEqual(last.status, 1, last.stderr)

        XCTAssertEqual(try dump(store), try dump(reference), "every item and version as after the uninterrupted run")

        // The same documents as one JSON array, read on one thread (NDJSON is cut into parts
        // that two threads parse), make the same store.
        let array = directory + "/array.sqlite"
        try FileManager.default.copyItem(atPath: base, toPath: array)
        try ("[\n" + orders(2_000, lines: 6, refreshed: true).joined(separator: ",\n") + "\n]\n").write(
            toFile: directory + "/refresh.json", atomically: false, encoding: .utf8)
        let fromArray = try ImporterProcess.run([
            "run", try pipeline("array", input: "refresh.json", store: array, batchSize: 2_000), "--quiet",
        ])
        XCTAssertEqual(fromArray.status, 1, fromArray.stderr)
        XCTAssertEqual(try dump(array), try dump(reference))
        let expected = try ImporterProcess.report(in: directory + "/reports-reference").object("totals")
        let totals = try ImporterProcess.report(in: directory + "/reports-resumed").object("totals")
        for count in ["read", "inserted", "updated", "unchanged", "deleted", "rejected"] {
            XCTAssertEqual(totals.int(count), expected.int(count), count)
        }
        XCTAssertEqual(
            [expected.int("updated"), expected.int("deleted"), expected.int("rejected")], [667, 3998, 13],
            "first lines changed; last lines and adjustments gone but order 5's, rejected whole")
        XCTAssertEqual(try ImporterProcess.sqlite(store, "SELECT count(*) FROM Line"), "12001")
        let rejects = try ImporterProcess.rejects(in: directory + "/reports-resumed")
        XCTAssertEqual(rejects.map { $0["key"] as? String }, ["O00005"], "listed once, as in the uninterrupted run")
        XCTAssertEqual(rejects.first?.objects("problems").map { $0.string("path") }, ["/lines/0"])
    }

    /// `count` orders of 7 lines with an adjustment each, loaded into `base.sqlite`, and their
    /// refresh in refresh.ndjson, loaded uninterrupted into a copy, `reference.sqlite` (reports
    /// in reports-reference), in batches of `batchSize` records. The refresh drops each order's last
    /// line (its adjustment cascades) and changes every third order's first line. Order 5's
    /// first line changes, based on version 7: a conflict that rejects the order whole, its last
    /// line kept.
    func loadOrdersAndTheirRefresh(count: Int = 2_000, batchSize: Int = 2_000) throws -> (
        base: String, reference: String
    ) {
        let base = directory + "/base.sqlite"
        try (orders(count, lines: 7, refreshed: false).joined(separator: "\n") + "\n").write(
            toFile: directory + "/base.ndjson", atomically: false, encoding: .utf8)
        try (orders(count, lines: 6, refreshed: true).joined(separator: "\n") + "\n").write(
            toFile: directory + "/refresh.ndjson", atomically: false, encoding: .utf8)
        XCTAssertEqual(
            try ImporterProcess.run([
                "run", try pipeline("base", input: "base.ndjson", store: base, batchSize: 50_000), "--quiet",
            ]).status, 0)
        let reference = directory + "/reference.sqlite"
        try FileManager.default.copyItem(atPath: base, toPath: reference)
        let uninterrupted = try ImporterProcess.run([
            "run", try pipeline("reference", input: "refresh.ndjson", store: reference, batchSize: batchSize),
            "--quiet",
        ])
        XCTAssertEqual(uninterrupted.status, 1, uninterrupted.stderr)
        return (base, reference)
    }

    /// The orders of `loadOrdersAndTheirRefresh`, as NDJSON lines, with `lines` lines each.
    private func orders(_ count: Int, lines: Int, refreshed: Bool) -> [String] {
        (0..<count).map { number in
            order(
                String(format: "O%05d", number),
                lines: (0..<lines).map { position in
                    let text = line(
                        "sku-\(position)", quantity: refreshed && number % 3 == 0 && position == 0 ? 9 : 1,
                        adjustments: [String(format: "%08x%016x", number, position)])
                    return refreshed && number == 5 && position == 0
                        ? text.replacingOccurrences(of: "{\"sku\"", with: "{\"version\":7,\"sku\"")
                            .replacingOccurrences(of: "\"quantity\":1", with: "\"quantity\":5") : text
                })
        }
    }

    func testExportedDocumentsLoadBackIntoAnIdenticalStore() throws {
        let orders = [
            order("O1", lines: [line("a", quantity: 2, adjustments: ["a1", "a2"]), line("b")]),
            order("O2", lines: []), order("O3", lines: [line("c", adjustments: ["c1"])]),
        ]
        XCTAssertEqual(try run(orders).status, 0)
        let exported = directory + "/exported.ndjson"
        let export = try ImporterProcess.run([
            "export", directory + "/pipeline.yaml", "--documents", "Order", "--out", exported,
        ])
        XCTAssertEqual(export.status, 0, export.stderr)
        let text = try String(contentsOfFile: exported, encoding: .utf8)
        let first = try XCTUnwrap(
            text.split(separator: "\n").first { $0.contains("\"orderId\":\"O1\"") }.map(String.init))
        XCTAssertTrue(first.contains("\"currency\":{\"code\":\"EUR\"}"), first)
        XCTAssertTrue(
            first.contains(
                "\"lines\":[{\"sku\":\"a\",\"quantity\":2,\"price\":1.5,\"adjustments\":[{\"_id\":\"a1\",\"kind\":null,\"amount\":-1,\"appliedAt\":null},"
            ), first)
        XCTAssertFalse(first.contains("lineNo") || first.contains("version"), first)

        let original = try dump(directory + "/store.sqlite")
        try FileManager.default.removeItem(atPath: directory + "/store.sqlite")
        try FileManager.default.removeItem(atPath: directory + "/orders.ndjson")
        try FileManager.default.copyItem(atPath: exported, toPath: directory + "/orders.ndjson")
        let reload = try ImporterProcess.run(["run", directory + "/pipeline.yaml", "--quiet"])
        XCTAssertEqual(reload.status, 0, reload.stderr)
        XCTAssertEqual(try dump(directory + "/store.sqlite"), original)
        XCTAssertEqual(try query("SELECT count(*) FROM Adjustment"), "3")
    }
}
