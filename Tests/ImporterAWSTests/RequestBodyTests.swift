import Foundation
@testable import ImporterDynamoDB
import XCTest

/// The requests that write their JSON body by hand say exactly what `JSONEncoder` says of them.
final class RequestBodyTests: XCTestCase {
    /// Every kind of attribute value, and text that needs escaping.
    private let item: DynamoItem = [
        "id": .s("a \"quoted\" back\\slash / tab\t newline\n nul\u{0} é 😀"),
        "n": .n("-12.50"), "b": .b("AAEC/w=="), "yes": .bool(true), "no": .bool(false), "nothing": .null,
        "list": .l([.s("x"), .n("1"), .l([]), .m(["inner": .bool(false)])]),
        "map": .m(["k": .s(""), "deep": .m(["z": .null])]),
        "ss": .ss(["a", "b"]), "ns": .ns(["1", "2.5"]), "bs": .bs(["AA=="]), "empty map": .m([:]),
    ]

    func testHandWrittenBodiesMatchJSONEncoder() throws {
        var conditional = DynamoDB.PutItem(
            tableName: "T-1", item: item,
            condition: DynamoDB.Condition(
                "#v = :v", names: ["#v": "version", "#k": "id"], values: [":v": .n("3")]))
        conditional.returnConsumedCapacity = DynamoDB.totalCapacity
        var projected = DynamoDB.GetItem(tableName: "T", key: ["id": .s("k")])
        projected.projectionExpression = "#k"
        projected.expressionAttributeNames = ["#k": "id"]
        var write = DynamoDB.BatchWriteItem(requestItems: [
            "T": [DynamoDB.WriteRequest(put: item), DynamoDB.WriteRequest(put: ["id": .s("2")])],
            "U": [DynamoDB.WriteRequest(put: ["id": .n("1")])],
        ])
        var delete = DynamoDB.WriteRequest(put: [:])
        (delete.putRequest, delete.deleteRequest) = (nil, .init(key: ["id": .n("9")]))
        write.requestItems["U"]!.append(delete)
        var unasked = DynamoDB.BatchWriteItem(requestItems: [:])
        unasked.returnConsumedCapacity = nil

        try assertSameJSON(DynamoDB.PutItem(tableName: "T", item: item))
        try assertSameJSON(conditional)
        try assertSameJSON(DynamoDB.GetItem(tableName: "T", key: ["id": .s("k"), "at": .n("5")]))
        try assertSameJSON(projected)
        try assertSameJSON(write)
        try assertSameJSON(unasked)
        try assertSameJSON(
            DynamoDB.TransactWriteItems(puts: [conditional, DynamoDB.PutItem(tableName: "U", item: ["id": .s("1")])]))
        try assertSameJSON(DynamoDB.TransactWriteItems(puts: []))
        var transactedDelete = DynamoDB.DeleteItem(
            tableName: "T", key: ["id": .s("d")],
            condition: DynamoDB.Condition(
                "#v = :v", names: ["#v": "version"], values: [":v": .n("2")]))
        transactedDelete.returnConsumedCapacity = nil
        try assertSameJSON(
            DynamoDB.TransactWriteItems(actions: [
                .put(conditional), .delete(transactedDelete),
                .delete(DynamoDB.DeleteItem(tableName: "U", key: ["id": .n("1")])),
                .conditionCheck(
                    DynamoDB.ConditionCheck(
                        tableName: "T", key: ["id": .s("p")],
                        condition: DynamoDB.Condition("attribute_not_exists(#k)", names: ["#k": "id"]))),
            ]))
        try assertSameJSON(
            DynamoDB.BatchGetItem(requestItems: [
                "T": DynamoDB.KeysAndAttributes(keys: [["id": .s("a")], ["id": .s("b")]]),
                "U": DynamoDB.KeysAndAttributes(keys: [["id": .n("1")]], consistentRead: nil),
                "V": DynamoDB.KeysAndAttributes(keys: [], consistentRead: false),
            ]))
    }

    /// An item sent as the text `DynamoItemCoding` writes is the item sent as typed attributes.
    func testItemsSentAsTextAreTheItemsSentAsAttributes() throws {
        for coding in [DynamoItemCodingTests.iso, DynamoItemCodingTests.epoch] {
            let rows = DynamoItemCodingTests.edgeRows
            let typed = rows.map { ItemContent.attributes(coding.encodeObject($0)) }
            let texts = rows.map { ItemContent.text(coding.itemText($0)) }
            func batch(_ items: [ItemContent]) -> DynamoDB.BatchWriteItem {
                DynamoDB.BatchWriteItem(requestItems: ["T": items.map { DynamoDB.WriteRequest(put: $0) }])
            }
            func transaction(_ items: [ItemContent]) -> DynamoDB.TransactWriteItems {
                let condition = DynamoDB.Condition("attribute_not_exists(#k)", names: ["#k": "id"])
                return DynamoDB.TransactWriteItems(
                    puts: items.map { DynamoDB.PutItem(tableName: "T", content: $0, condition: condition) },
                    token: "same")
            }
            try assertSameJSON(batch(texts), as: batch(typed))
            try assertSameJSON(transaction(texts), as: transaction(typed))
            for (text, item) in zip(texts, typed) {
                try assertSameJSON(
                    DynamoDB.PutItem(tableName: "T", content: text), as: DynamoDB.PutItem(tableName: "T", content: item)
                )
                XCTAssertEqual(try text.attributes(), try item.attributes())
            }
            // What JSONEncoder makes of a text item is the typed item's JSON too.
            try assertSameJSON(batch(texts))
        }
    }

    func testAValueThatIsNotAnAttributeValueIsRefused() {
        let put = DynamoDB.PutItem(tableName: "T", item: ["id": .s("1"), "odd": .unrecognized(#"{"BOOL": 1}"#)])
        XCTAssertThrowsError(try put.body()) { error in
            XCTAssertTrue("\(error)".contains(#"not a DynamoDB attribute value: {"BOOL": 1}"#), "\(error)")
        }
        XCTAssertThrowsError(try JSONEncoder().encode(put))
    }

    /// Two requests' bodies are the same JSON.
    private func assertSameJSON<Request: DynamoDB.Operation>(_ request: Request, as other: Request, line: UInt = #line)
        throws
    {
        let body = try request.body()
        let parsed = try JSONSerialization.jsonObject(with: body) as? NSDictionary
        let expected = try JSONSerialization.jsonObject(with: other.body()) as? NSDictionary
        XCTAssertNotNil(parsed, "\(Request.name): not a JSON object", line: line)
        XCTAssertEqual(parsed, expected, "\(Request.name): \(String(decoding: body, as: UTF8.self))", line: line)
    }

    private func assertSameJSON<Request: DynamoDB.Operation>(_ request: Request, line: UInt = #line) throws {
        let body = try request.body()
        let parsed = try JSONSerialization.jsonObject(with: body) as? NSDictionary
        let expected = try JSONSerialization.jsonObject(with: JSONEncoder().encode(request)) as? NSDictionary
        XCTAssertNotNil(parsed, "\(Request.name): not a JSON object", line: line)
        XCTAssertEqual(parsed, expected, "\(Request.name): \(String(decoding: body, as: UTF8.self))", line: line)
    }
}
