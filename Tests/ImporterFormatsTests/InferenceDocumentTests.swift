@testable import ImporterCore
import XCTest
@testable import ImporterFormats

/// `model infer` on files of documents (docs/infer.md#documents): an entity per array of
/// objects, its key, the nesting's relationships, nested objects read through `map.fields`, and
/// a starter pipeline whose `children:` tree the pipeline loader accepts.
final class InferenceDocumentTests: XCTestCase {
    let fixture = InferenceFixture()

    private let orders = """
        {"orderId": "A-1", "placedAt": {"$date": "2026-03-02T09:15:00Z"}, "currency": {"code": "EUR", "symbol": "€"}, "shipTo": null, "lines": [{"sku": "TEA", "qty": 2, "adjustments": [{"_id": {"$oid": "65f1a2b3c4d5e6f708192a01"}, "amount": -0.45}]}, {"sku": "CUP", "qty": 1, "adjustments": []}]}
        {"orderId": "A-2", "placedAt": "2026-03-03T10:00:00Z", "currency": {"code": "USD", "symbol": "$"}, "shipTo": {"city": "Paris"}, "lines": [{"sku": "TEA", "qty": 5, "adjustments": [{"_id": {"$oid": "65f1a2b3c4d5e6f708192a02"}, "amount": 1.5}, {"_id": {"$oid": "65f1a2b3c4d5e6f708192a03"}, "amount": 2}]}]}
        {"orderId": "A-3", "placedAt": "2026-03-04T10:00:00Z", "currency": {"code": "GBP", "symbol": "£"}, "lines": null}

        """

    func testAnEntityPerArrayOfObjectsKeyedByItsIdElseByParentAndPosition() throws {
        let inferred = try fixture.infer("orders.ndjson", orders)
        XCTAssertEqual(inferred.model.entities.map(\.name), ["Order", "Line", "Adjustment"])
        XCTAssertEqual(
            inferred.types("Order"),
            [
                "orderId: string!", "placedAt: date!", "currencyCode: string!", "currencySymbol: string!",
                "shipToCity: string", "version: int64",
            ])
        XCTAssertEqual(
            inferred.types("Line"),
            ["sku: string!", "qty: int16!", "orderId: string!", "lineNo: int32!", "version: int64"])
        XCTAssertEqual(
            inferred.types("Adjustment"),
            ["adjustmentId: string!", "amount: double!", "orderId: string!", "lineNo: int32!", "version: int64"])
        let line = inferred.entity("Line"), adjustment = inferred.entity("Adjustment")
        XCTAssertEqual([line.hashKey, line.rangeKey], ["orderId", "lineNo"])
        XCTAssertEqual([adjustment.hashKey, adjustment.rangeKey], ["adjustmentId", nil])
        let order = inferred.entity("Order")
        XCTAssertEqual(
            order.relationships.map { "\($0.name)→\($0.destination) many:\($0.toMany) \($0.deleteRule)" },
            ["lines→Line many:true cascade"])
        XCTAssertEqual(
            line.relationships.map { "\($0.name)→\($0.destination) \($0.keys)" },
            ["order→Order [\"orderId\"]", "adjustments→Adjustment []"])
        XCTAssertEqual(
            adjustment.relationships.map { "\($0.name)→\($0.destination) \($0.keys)" },
            ["line→Line [\"orderId\", \"lineNo\"]"])

        let source = inferred.source("Order")
        XCTAssertEqual(inferred.pipeline.sources.count, 1, inferred.pipelineYAML)
        XCTAssertEqual(
            source.map.fields,
            ["currencyCode": "currency.code", "currencySymbol": "currency.symbol", "shipToCity": "shipTo.city"])
        XCTAssertEqual(source.children.map(\.pathText), ["lines"])
        let lines = source.children[0]
        XCTAssertEqual([lines.entity, lines.parent, lines.position], ["Line", "order", "lineNo"])
        XCTAssertEqual(
            lines.children.map { [$0.pathText, $0.entity, $0.parent] }, [["adjustments", "Adjustment", "line"]])
        XCTAssertNil(lines.children[0].position)
        XCTAssertEqual(lines.children[0].map.rename, ["_id": "adjustmentId"])
        XCTAssertTrue(inferred.modelYAML.contains("# the elements of 'lines' in each Order"), inferred.modelYAML)
        XCTAssertTrue(inferred.modelYAML.contains("# 3 elements") || inferred.modelYAML.contains(": 3 elements"))
    }

    func testAChildOfAParentWithATwoPartKeyIsKeyedByItsOwnFields() throws {
        let inferred = try fixture.infer(
            "regions.json",
            """
            [{"regionId": "R1", "districts": [{"name": "North", "towns": [{"name": "Ava", "zip": "100"}, {"name": "Bel", "zip": "101"}]}]},
             {"regionId": "R2", "districts": [{"name": "South", "towns": [{"name": "Cor", "zip": "200"}]}, {"name": "East", "towns": []}]}]
            """)
        let town = inferred.entity("Town")
        XCTAssertEqual(
            [inferred.entity("District").hashKey, inferred.entity("District").rangeKey], ["regionId", "districtNo"])
        XCTAssertEqual(town.attributes.map(\.name), ["name", "zip", "regionId", "districtNo", "version"])
        XCTAssertEqual(town.hashKey, "name")
        XCTAssertTrue(
            inferred.modelYAML.contains("no id of its own, and its parent District's key has two parts"),
            inferred.modelYAML)
        XCTAssertEqual(
            town.relationships.map { "\($0.name) \($0.keys)" }, ["district [\"regionId\", \"districtNo\"]"])
        XCTAssertNil(inferred.source("Region").children[0].children[0].position)
    }

    func testArraysOfValuesMixedFieldsAndEmptyArraysStayFieldsThatAreDropped() throws {
        let inferred = try fixture.infer(
            "things.ndjson",
            """
            {"id": 1, "tags": ["a", "b"], "refs": [{"$oid": "65f1a2b3c4d5e6f708192a01"}], "odd": {"a": 1}, "none": [], "meta": {"flags": [1, 2]}}
            {"id": 2, "tags": [], "refs": [], "odd": "text", "none": [], "meta": {"flags": []}}

            """)
        XCTAssertEqual(inferred.model.entities.map(\.name), ["Thing"])
        XCTAssertEqual(inferred.types(), ["id: int16!", "version: int64"])
        XCTAssertEqual(inferred.source().map.drop, ["tags", "refs", "odd", "none", "meta"])
        XCTAssertTrue(inferred.source().children.isEmpty)
        XCTAssertTrue(inferred.source().map.fields.isEmpty)
    }

    func testAFlatJSONFileIsProfiledAsRecordsWithoutChildren() throws {
        // No object or array: no child profiles, no object fields.
        fixture.write("flat.ndjson", "{\"id\": 1, \"n\": \"a\"}\n{\"id\": 2, \"n\": null}\n")
        let profile = try FileScanner.profile(path: fixture.files.path + "/flat.ndjson")
        XCTAssertTrue(profile.children.isEmpty)
        XCTAssertTrue(profile.objectFields.isEmpty)
        XCTAssertEqual(profile.records, 2)
    }

    /// Documents profiled in parts on two threads give the model and pipeline one thread gives,
    /// over several parts whose shapes differ: an array that holds elements only in later
    /// documents, a child array and an object field first met late, a field that is an object
    /// early and text later, nulls, and a JSON array file as well as NDJSON.
    func testDocumentsProfiledInPartsGiveTheModelOfOneThread() throws {
        var documents: [String] = []
        for index in 0..<6_000 {
            let late = index >= 4_000
            let lines = (0..<(index % 4)).map { line in
                let adjustments =
                    late
                    ? #"[{"_id": {"$oid": "65f1a2b3c4d5e6f7081\#(String(format: "%05d", index * 4 + line))"}, "amount": \#(line).5}]"#
                    : "[]"
                return #"{"sku": "S\#(line)", "qty": \#(index % 9), "adjustments": \#(adjustments)}"#
            }
            let note = index < 3_000 ? #"{"text": "n\#(index)"}"# : #""plain \#(index)""#
            let gift = late ? #", "gift": {"wrap": \#(index % 2 == 0)}, "returns": [{"reason": "r\#(index)"}]"# : ""
            documents.append(
                #"{"orderId": "A-\#(index)", "note": \#(note), "shipTo": \#(index % 5 == 0 ? "null" : #"{"city": "C\#(index % 30)"}"#), "lines": [\#(lines.joined(separator: ", "))]\#(gift), "pad": "\#(String(repeating: "x", count: 200))"}"#
            )
        }
        let ndjson = fixture.write("orders.ndjson", documents.joined(separator: "\n") + "\n")
        let json = fixture.write("orders.json", "[\n" + documents.joined(separator: ",\n") + "\n]\n")
        for path in [ndjson, json] {
            let one = try FileScanner.profile(path: path, parallel: false)
            let two = try FileScanner.profile(path: path, parallel: true)
            XCTAssertEqual(one.records, 6_000, path)
            XCTAssertEqual(two.records, one.records, path)
            XCTAssertEqual(two.objectFields, one.objectFields, path)
            XCTAssertEqual(two.children.map(\.arrayPath), one.children.map(\.arrayPath), path)
            XCTAssertEqual(one.children.map(\.arrayPath), [["lines"], ["returns"]], path)
            let inferredOne = try ModelInference.infer([one], modelName: "Test")
            let inferredTwo = try ModelInference.infer([two], modelName: "Test")
            XCTAssertEqual(inferredTwo.modelYAML, inferredOne.modelYAML, path)
            XCTAssertEqual(
                inferredTwo.pipelineYAML(modelPath: "m.yaml", sourcePaths: [path], name: "t"),
                inferredOne.pipelineYAML(modelPath: "m.yaml", sourcePaths: [path], name: "t"), path)
            XCTAssertTrue(inferredOne.modelYAML.contains("Adjustment"), inferredOne.modelYAML)
            XCTAssertTrue(inferredOne.modelYAML.contains("giftWrap"), inferredOne.modelYAML)
        }
    }

    func testSampleReadsTheFirstDocumentsOnly() throws {
        let inferred = try fixture.infer("orders.ndjson", orders, sample: 1)
        XCTAssertEqual(inferred.model.entities.map(\.name), ["Order", "Line", "Adjustment"])
        XCTAssertTrue(inferred.modelYAML.contains("the first 2 elements"), inferred.modelYAML)
        XCTAssertTrue(inferred.modelYAML.contains("the first 1 elements"), inferred.modelYAML)
        // shipTo was null in the first document: a string, which holds a later object's JSON text.
        XCTAssertEqual(
            inferred.types("Order"),
            [
                "orderId: string!", "placedAt: date!", "currencyCode: string!", "currencySymbol: string!",
                "shipTo: string", "version: int64",
            ])
        XCTAssertTrue(inferred.source().map.drop.isEmpty)
    }
}
