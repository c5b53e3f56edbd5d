import ImporterAWS
import Foundation

/// The typed requests and responses of the DynamoDB operations the store uses, with the wire
/// names of DynamoDB's JSON protocol 1.0 (API version 2012-08-10). Optional members left nil
/// are not sent.
package enum DynamoDB {
    /// An operation: the request's type and the name sent in `X-Amz-Target`.
    package protocol Operation: Encodable, Sendable {
        associatedtype Response: Decodable & Sendable
        static var name: String { get }
        /// The operation writes items: its consumed capacity is write capacity.
        static var writes: Bool { get }
        /// The request as JSON: `JSONEncoder`'s text, unless the operation writes its own
        /// (`RequestBodies.swift`, the write path's requests).
        func body() throws -> Data
    }

    /// How much consumed capacity a request asks to be told: `TOTAL` for the store's item
    /// reads and writes (docs/dynamodb.md), none where the member is left nil.
    package static let totalCapacity = "TOTAL"

    /// A response whose members the caller does not read.
    package struct Empty: Codable, Sendable {
        package init() {}
    }

    // MARK: Tables

    package struct KeySchemaElement: Codable, Sendable, Equatable {
        package var attributeName: String
        package var keyType: String
        package init(_ name: String, _ keyType: String) { (attributeName, self.keyType) = (name, keyType) }
        enum CodingKeys: String, CodingKey { case attributeName = "AttributeName", keyType = "KeyType" }
    }

    package struct AttributeDefinition: Codable, Sendable, Equatable {
        package var attributeName: String
        package var attributeType: String
        package init(_ name: String, _ type: String) { (attributeName, attributeType) = (name, type) }
        enum CodingKeys: String, CodingKey { case attributeName = "AttributeName", attributeType = "AttributeType" }
    }

    package struct TableDescription: Decodable, Sendable {
        package var tableStatus: String?
        package var keySchema: [KeySchemaElement]?
        package var attributeDefinitions: [AttributeDefinition]?
        enum CodingKeys: String, CodingKey {
            case tableStatus = "TableStatus", keySchema = "KeySchema", attributeDefinitions = "AttributeDefinitions"
        }
    }

    package struct DescribeTable: Operation {
        package static let name = "DescribeTable"
        package var tableName: String
        package init(tableName: String) { self.tableName = tableName }
        enum CodingKeys: String, CodingKey { case tableName = "TableName" }
        package struct Response: Decodable, Sendable {
            package var table: TableDescription?
            enum CodingKeys: String, CodingKey { case table = "Table" }
        }
    }

    package struct CreateTable: Operation {
        package static let name = "CreateTable"
        package typealias Response = Empty
        package var tableName: String
        package var attributeDefinitions: [AttributeDefinition]
        package var keySchema: [KeySchemaElement]
        package var billingMode = "PAY_PER_REQUEST"
        /// A table keyed by `keys`: the hash (partition) key, then the range (sort) key if any,
        /// each with its attribute type (`S`, `N`, `B`).
        package init(tableName: String, keys: [(name: String, type: String)]) {
            self.tableName = tableName
            attributeDefinitions = keys.map { AttributeDefinition($0.name, $0.type) }
            keySchema = keys.enumerated().map { KeySchemaElement($1.name, $0 == 0 ? "HASH" : "RANGE") }
        }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", attributeDefinitions = "AttributeDefinitions", keySchema = "KeySchema"
            case billingMode = "BillingMode"
        }
    }

    package struct ListTables: Operation {
        package static let name = "ListTables"
        package init() {}
        package struct Response: Decodable, Sendable {
            package var tableNames: [String]?
            enum CodingKeys: String, CodingKey { case tableNames = "TableNames" }
        }
    }

    // MARK: Items

    /// The members shared by conditional single-item writes.
    package struct Condition: Sendable {
        package var expression: String
        package var names: [String: String]
        package var values: DynamoItem?
        package init(_ expression: String, names: [String: String], values: DynamoItem? = nil) {
            (self.expression, self.names, self.values) = (expression, names, values)
        }
    }

    package struct GetItem: Operation {
        package static let name = "GetItem"
        package var tableName: String
        package var key: DynamoItem
        package var consistentRead = true
        package var projectionExpression: String?
        package var expressionAttributeNames: [String: String]?
        package var returnConsumedCapacity: String? = totalCapacity
        package init(tableName: String, key: DynamoItem) { (self.tableName, self.key) = (tableName, key) }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", key = "Key", consistentRead = "ConsistentRead"
            case projectionExpression = "ProjectionExpression", expressionAttributeNames = "ExpressionAttributeNames"
            case returnConsumedCapacity = "ReturnConsumedCapacity"
        }
        package struct Response: Decodable, Sendable, ReportsCapacity {
            package var item: DynamoItem?
            package var consumedCapacity: ConsumedCapacity?
            enum CodingKeys: String, CodingKey { case item = "Item", consumedCapacity = "ConsumedCapacity" }
        }
    }

    package struct PutItem: Operation {
        package static let name = "PutItem"
        package static let writes = true
        package typealias Response = WriteResponse
        package var tableName: String
        package var item: ItemContent
        package var conditionExpression: String?
        package var expressionAttributeNames: [String: String]?
        package var expressionAttributeValues: DynamoItem?
        /// nil by default: a put inside a transaction may not carry it (the transaction does).
        package var returnConsumedCapacity: String?
        package init(tableName: String, item: DynamoItem, condition: Condition? = nil) {
            self.init(tableName: tableName, content: .attributes(item), condition: condition)
        }
        package init(tableName: String, content: ItemContent, condition: Condition? = nil) {
            (self.tableName, item) = (tableName, content)
            conditionExpression = condition?.expression
            expressionAttributeNames = condition?.names
            expressionAttributeValues = condition?.values
        }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", item = "Item", conditionExpression = "ConditionExpression"
            case expressionAttributeNames = "ExpressionAttributeNames", expressionAttributeValues =
                "ExpressionAttributeValues"
            case returnConsumedCapacity = "ReturnConsumedCapacity"
        }
    }

    package struct DeleteItem: Operation {
        package static let name = "DeleteItem"
        package static let writes = true
        package typealias Response = WriteResponse
        package var tableName: String
        package var key: DynamoItem
        package var conditionExpression: String?
        package var expressionAttributeNames: [String: String]?
        package var expressionAttributeValues: DynamoItem?
        package var returnConsumedCapacity: String? = totalCapacity
        package init(tableName: String, key: DynamoItem, condition: Condition? = nil) {
            (self.tableName, self.key) = (tableName, key)
            conditionExpression = condition?.expression
            expressionAttributeNames = condition?.names
            expressionAttributeValues = condition?.values
        }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", key = "Key", conditionExpression = "ConditionExpression"
            case expressionAttributeNames = "ExpressionAttributeNames", expressionAttributeValues =
                "ExpressionAttributeValues"
            case returnConsumedCapacity = "ReturnConsumedCapacity"
        }
    }

    /// A condition on an item that a transaction does not change (an action of
    /// `TransactWriteItems`): the transaction is cancelled if the item no longer meets it.
    package struct ConditionCheck: Encodable, Sendable {
        package var tableName: String
        package var key: DynamoItem
        package var conditionExpression: String
        package var expressionAttributeNames: [String: String]?
        package var expressionAttributeValues: DynamoItem?
        package init(tableName: String, key: DynamoItem, condition: Condition) {
            (self.tableName, self.key) = (tableName, key)
            conditionExpression = condition.expression
            expressionAttributeNames = condition.names
            expressionAttributeValues = condition.values
        }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", key = "Key", conditionExpression = "ConditionExpression"
            case expressionAttributeNames = "ExpressionAttributeNames", expressionAttributeValues =
                "ExpressionAttributeValues"
        }
    }

    package struct UpdateItem: Operation {
        package static let name = "UpdateItem"
        package static let writes = true
        package typealias Response = WriteResponse
        package var returnConsumedCapacity: String? = totalCapacity
        package var tableName: String
        package var key: DynamoItem
        package var updateExpression: String
        package var conditionExpression: String
        package var expressionAttributeNames: [String: String]
        package var expressionAttributeValues: DynamoItem
        package init(tableName: String, key: DynamoItem, update: String, condition: Condition) {
            (self.tableName, self.key, updateExpression) = (tableName, key, update)
            conditionExpression = condition.expression
            expressionAttributeNames = condition.names
            expressionAttributeValues = condition.values ?? [:]
        }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", key = "Key", updateExpression = "UpdateExpression"
            case conditionExpression = "ConditionExpression", returnConsumedCapacity = "ReturnConsumedCapacity"
            case expressionAttributeNames = "ExpressionAttributeNames", expressionAttributeValues =
                "ExpressionAttributeValues"
        }
    }

    package struct Scan: Operation {
        package static let name = "Scan"
        package var tableName: String
        package var consistentRead = true
        package var limit: Int?
        package var segment: Int?
        package var totalSegments: Int?
        /// `COUNT` to count only.
        package var select: String?
        package var exclusiveStartKey: DynamoItem?
        package var filterExpression: String?
        package var expressionAttributeNames: [String: String]?
        package var expressionAttributeValues: DynamoItem?
        package var returnConsumedCapacity: String? = totalCapacity
        package init(tableName: String) { self.tableName = tableName }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", consistentRead = "ConsistentRead", limit = "Limit", segment = "Segment"
            case totalSegments = "TotalSegments", select = "Select", exclusiveStartKey = "ExclusiveStartKey"
            case filterExpression = "FilterExpression", expressionAttributeNames = "ExpressionAttributeNames"
            case expressionAttributeValues = "ExpressionAttributeValues", returnConsumedCapacity =
                "ReturnConsumedCapacity"
        }
        package typealias Response = ItemsPage
    }

    /// The items of a table whose hash key has one value (and whose range key, if the
    /// condition names it, satisfies it), a page at a time.
    package struct Query: Operation {
        package static let name = "Query"
        package var tableName: String
        package var consistentRead = true
        package var keyConditionExpression: String
        package var filterExpression: String?
        package var expressionAttributeNames: [String: String]
        package var expressionAttributeValues: DynamoItem
        package var exclusiveStartKey: DynamoItem?
        package var returnConsumedCapacity: String? = totalCapacity
        package init(
            tableName: String, keyCondition: String, filter: String?, names: [String: String], values: DynamoItem
        ) {
            (self.tableName, keyConditionExpression, filterExpression) = (tableName, keyCondition, filter)
            (expressionAttributeNames, expressionAttributeValues) = (names, values)
        }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", consistentRead = "ConsistentRead", keyConditionExpression =
                "KeyConditionExpression"
            case filterExpression = "FilterExpression", expressionAttributeNames = "ExpressionAttributeNames"
            case expressionAttributeValues = "ExpressionAttributeValues", exclusiveStartKey = "ExclusiveStartKey"
            case returnConsumedCapacity = "ReturnConsumedCapacity"
        }
        package typealias Response = ItemsPage
    }

    /// A page of a Scan or a Query.
    package struct ItemsPage: Decodable, Sendable, ReportsCapacity {
        package var items: [DynamoItem]?
        package var count: Int?
        package var lastEvaluatedKey: DynamoItem?
        package var consumedCapacity: ConsumedCapacity?
        enum CodingKeys: String, CodingKey {
            case items = "Items", count = "Count", lastEvaluatedKey = "LastEvaluatedKey", consumedCapacity =
                "ConsumedCapacity"
        }
    }

    // MARK: Batches and transactions

    package struct KeysAndAttributes: Codable, Sendable {
        package var keys: [DynamoItem]
        package var consistentRead: Bool?
        package init(keys: [DynamoItem], consistentRead: Bool? = true) {
            (self.keys, self.consistentRead) = (keys, consistentRead)
        }
        enum CodingKeys: String, CodingKey { case keys = "Keys", consistentRead = "ConsistentRead" }
    }

    package struct BatchGetItem: Operation {
        package static let name = "BatchGetItem"
        package var requestItems: [String: KeysAndAttributes]
        package var returnConsumedCapacity: String? = totalCapacity
        package init(requestItems: [String: KeysAndAttributes]) { self.requestItems = requestItems }
        enum CodingKeys: String, CodingKey {
            case requestItems = "RequestItems", returnConsumedCapacity = "ReturnConsumedCapacity"
        }
        package struct Response: Decodable, Sendable, ReportsCapacity {
            package var responses: [String: [DynamoItem]]?
            package var unprocessedKeys: [String: KeysAndAttributes]?
            package var consumedCapacity: ConsumedCapacity?
            enum CodingKeys: String, CodingKey {
                case responses = "Responses", unprocessedKeys = "UnprocessedKeys", consumedCapacity = "ConsumedCapacity"
            }
        }
    }

    package struct WriteRequest: Codable, Sendable {
        package struct Put: Codable, Sendable {
            package var item: ItemContent
            enum CodingKeys: String, CodingKey { case item = "Item" }
        }
        package struct Delete: Codable, Sendable {
            package var key: DynamoItem
            enum CodingKeys: String, CodingKey { case key = "Key" }
        }
        package var putRequest: Put?
        package var deleteRequest: Delete?
        package init(put item: DynamoItem) { putRequest = Put(item: .attributes(item)) }
        package init(put content: ItemContent) { putRequest = Put(item: content) }
        enum CodingKeys: String, CodingKey { case putRequest = "PutRequest", deleteRequest = "DeleteRequest" }
    }

    package struct BatchWriteItem: Operation {
        package static let name = "BatchWriteItem"
        package static let writes = true
        package var requestItems: [String: [WriteRequest]]
        package var returnConsumedCapacity: String? = totalCapacity
        package init(requestItems: [String: [WriteRequest]]) { self.requestItems = requestItems }
        enum CodingKeys: String, CodingKey {
            case requestItems = "RequestItems", returnConsumedCapacity = "ReturnConsumedCapacity"
        }
        package struct Response: Decodable, Sendable, ReportsCapacity {
            package var unprocessedItems: [String: [WriteRequest]]?
            package var consumedCapacity: ConsumedCapacity?
            enum CodingKeys: String, CodingKey {
                case unprocessedItems = "UnprocessedItems", consumedCapacity = "ConsumedCapacity"
            }
        }
    }

    package struct TransactWriteItems: Operation {
        package static let name = "TransactWriteItems"
        package static let writes = true
        package typealias Response = WriteResponse
        /// One action of the transaction: a write, a delete, or a condition on an item it leaves
        /// as it is. None may carry `ReturnConsumedCapacity` (the transaction does).
        package enum Action: Encodable, Sendable {
            case put(PutItem)
            case delete(DeleteItem)
            case conditionCheck(ConditionCheck)

            package func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                switch self {
                case .put(let put): try container.encode(put, forKey: .put)
                case .delete(let delete): try container.encode(delete, forKey: .delete)
                case .conditionCheck(let check): try container.encode(check, forKey: .conditionCheck)
                }
            }
            enum CodingKeys: String, CodingKey {
                case put = "Put", delete = "Delete", conditionCheck = "ConditionCheck"
            }
        }
        package var clientRequestToken: String
        package var transactItems: [Action]
        package var returnConsumedCapacity: String? = totalCapacity
        package init(actions: [Action], token: String = UUID().uuidString) {
            clientRequestToken = token
            transactItems = actions
        }
        package init(puts: [PutItem], token: String = UUID().uuidString) {
            self.init(actions: puts.map(Action.put), token: token)
        }
        enum CodingKeys: String, CodingKey {
            case clientRequestToken = "ClientRequestToken", transactItems = "TransactItems", returnConsumedCapacity =
                "ReturnConsumedCapacity"
        }
    }
}
