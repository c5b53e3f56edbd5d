import Foundation

extension DynamoDB.Operation {
    package func body() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

// The requests a load sends by the thousand write their JSON themselves, member for member as
// their `CodingKeys` name them (`RequestBodyTests` holds them to `JSONEncoder`'s text).

extension DynamoDB.PutItem {
    package func body() throws -> Data { try JSONBodyWriter.body(write) }

    func write(to json: inout JSONBodyWriter) throws {
        try json.object { json in
            json.member("TableName", tableName)
            try json.member("Item", item)
            json.member("ConditionExpression", conditionExpression)
            json.member("ExpressionAttributeNames", expressionAttributeNames)
            try json.member("ExpressionAttributeValues", expressionAttributeValues)
            json.member("ReturnConsumedCapacity", returnConsumedCapacity)
        }
    }
}

extension DynamoDB.TransactWriteItems {
    package func body() throws -> Data {
        try JSONBodyWriter.body { json in
            try json.object { json in
                json.member("ClientRequestToken", clientRequestToken)
                json.key("TransactItems")
                try json.array { json in
                    for action in transactItems {
                        try json.object { json in
                            switch action {
                            case .put(let put):
                                json.key("Put")
                                try put.write(to: &json)
                            case .delete(let delete):
                                json.key("Delete")
                                try json.object { json in
                                    try json.keyAndCondition(
                                        table: delete.tableName, key: delete.key, delete.conditionExpression,
                                        names: delete.expressionAttributeNames, values: delete.expressionAttributeValues
                                    )
                                    json.member("ReturnConsumedCapacity", delete.returnConsumedCapacity)
                                }
                            case .conditionCheck(let check):
                                json.key("ConditionCheck")
                                try json.object { json in
                                    try json.keyAndCondition(
                                        table: check.tableName, key: check.key, check.conditionExpression,
                                        names: check.expressionAttributeNames, values: check.expressionAttributeValues)
                                }
                            }
                        }
                    }
                }
                json.member("ReturnConsumedCapacity", returnConsumedCapacity)
            }
        }
    }
}

extension JSONBodyWriter {
    /// The members of an action on an item named by its key, under a condition (a transaction's
    /// Delete or ConditionCheck).
    mutating func keyAndCondition(
        table: String, key: DynamoItem, _ expression: String?, names: [String: String]?,
        values: DynamoItem?
    ) throws {
        member("TableName", table)
        try member("Key", key)
        member("ConditionExpression", expression)
        member("ExpressionAttributeNames", names)
        try member("ExpressionAttributeValues", values)
    }
}

extension DynamoDB.BatchWriteItem {
    package func body() throws -> Data {
        try JSONBodyWriter.batch(requestItems, returnConsumedCapacity: returnConsumedCapacity) { json, requests in
            try json.array { json in
                for request in requests {
                    try json.object { json in
                        if let put = request.putRequest {
                            json.key("PutRequest")
                            try json.object { json in try json.member("Item", put.item) }
                        }
                        if let delete = request.deleteRequest {
                            json.key("DeleteRequest")
                            try json.object { json in try json.member("Key", delete.key) }
                        }
                    }
                }
            }
        }
    }
}

extension DynamoDB.BatchGetItem {
    package func body() throws -> Data {
        try JSONBodyWriter.batch(requestItems, returnConsumedCapacity: returnConsumedCapacity) { json, keys in
            try json.object { json in
                json.key("Keys")
                try json.array { json in for key in keys.keys { try json.item(key) } }
                if let consistent = keys.consistentRead {
                    json.key("ConsistentRead")
                    json.bool(consistent)
                }
            }
        }
    }
}

extension JSONBodyWriter {
    /// The body of a batch request: `{"RequestItems": {table: …}, "ReturnConsumedCapacity": …}`,
    /// each table's part written by `write`.
    static func batch<Part>(
        _ requestItems: [String: Part], returnConsumedCapacity: String?,
        _ write: (inout JSONBodyWriter, Part) throws -> Void
    ) throws -> Data {
        try JSONBodyWriter.body { json in
            try json.object { json in
                json.key("RequestItems")
                try json.object { json in
                    for (table, part) in requestItems {
                        json.key(table)
                        try write(&json, part)
                    }
                }
                json.member("ReturnConsumedCapacity", returnConsumedCapacity)
            }
        }
    }
}

extension DynamoDB.GetItem {
    package func body() throws -> Data {
        try JSONBodyWriter.body { json in
            try json.object { json in
                json.member("TableName", tableName)
                try json.member("Key", key)
                json.key("ConsistentRead")
                json.bool(consistentRead)
                json.member("ProjectionExpression", projectionExpression)
                json.member("ExpressionAttributeNames", expressionAttributeNames)
                json.member("ReturnConsumedCapacity", returnConsumedCapacity)
            }
        }
    }
}
