import ImporterAWS
import Foundation

/// The typed requests and responses of the DynamoDB operations the store uses, with the wire
/// names of DynamoDB's JSON protocol 1.0 (API version 2012-08-10). Optional members left nil
/// are not sent.
public enum DynamoDB {
    /// An operation: the request's type and the name sent in `X-Amz-Target`.
    public protocol Operation: Encodable, Sendable {
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
    public static let totalCapacity = "TOTAL"

    /// A response whose members the caller does not read.
    public struct Empty: Codable, Sendable {
        public init() {}
    }

    // MARK: Tables

    public struct KeySchemaElement: Codable, Sendable, Equatable {
        public var attributeName: String
        public var keyType: String
        public init(_ name: String, _ keyType: String) { (attributeName, self.keyType) = (name, keyType) }
        enum CodingKeys: String, CodingKey { case attributeName = "AttributeName", keyType = "KeyType" }
    }

    public struct AttributeDefinition: Codable, Sendable, Equatable {
        public var attributeName: String
        public var attributeType: String
        public init(_ name: String, _ type: String) { (attributeName, attributeType) = (name, type) }
        enum CodingKeys: String, CodingKey { case attributeName = "AttributeName", attributeType = "AttributeType" }
    }

    public struct TableDescription: Decodable, Sendable {
        public var tableStatus: String?
        public var keySchema: [KeySchemaElement]?
        public var attributeDefinitions: [AttributeDefinition]?
        enum CodingKeys: String, CodingKey {
            case tableStatus = "TableStatus", keySchema = "KeySchema", attributeDefinitions = "AttributeDefinitions"
        }
    }

    public struct DescribeTable: Operation {
        public static let name = "DescribeTable"
        public var tableName: String
        public init(tableName: String) { self.tableName = tableName }
        enum CodingKeys: String, CodingKey { case tableName = "TableName" }
        public struct Response: Decodable, Sendable {
            public var table: TableDescription?
            enum CodingKeys: String, CodingKey { case table = "Table" }
        }
    }

    public struct CreateTable: Operation {
        public static let name = "CreateTable"
        public typealias Response = Empty
        public var tableName: String
        public var attributeDefinitions: [AttributeDefinition]
        public var keySchema: [KeySchemaElement]
        public var billingMode = "PAY_PER_REQUEST"
        /// A table keyed by `keys`: the hash (partition) key, then the range (sort) key if any,
        /// each with its attribute type (`S`, `N`, `B`).
        public init(tableName: String, keys: [(name: String, type: String)]) {
            self.tableName = tableName
            attributeDefinitions = keys.map { AttributeDefinition($0.name, $0.type) }
            keySchema = keys.enumerated().map { KeySchemaElement($1.name, $0 == 0 ? "HASH" : "RANGE") }
        }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", attributeDefinitions = "AttributeDefinitions", keySchema = "KeySchema"
            case billingMode = "BillingMode"
        }
    }

    public struct ListTables: Operation {
        public static let name = "ListTables"
        public init() {}
        public struct Response: Decodable, Sendable {
            public var tableNames: [String]?
            enum CodingKeys: String, CodingKey { case tableNames = "TableNames" }
        }
    }

    // MARK: Items

    /// The members shared by conditional single-item writes.
    public struct Condition: Sendable {
        public var expression: String
        public var names: [String: String]
        public var values: DynamoItem?
        public init(_ expression: String, names: [String: String], values: DynamoItem? = nil) {
            (self.expression, self.names, self.values) = (expression, names, values)
        }
    }

    public struct GetItem: Operation {
        public static let name = "GetItem"
        public var tableName: String
        public var key: DynamoItem
        public var consistentRead = true
        public var projectionExpression: String?
        public var expressionAttributeNames: [String: String]?
        public var returnConsumedCapacity: String? = totalCapacity
        public init(tableName: String, key: DynamoItem) { (self.tableName, self.key) = (tableName, key) }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", key = "Key", consistentRead = "ConsistentRead"
            case projectionExpression = "ProjectionExpression", expressionAttributeNames = "ExpressionAttributeNames"
            case returnConsumedCapacity = "ReturnConsumedCapacity"
        }
        public struct Response: Decodable, Sendable, ReportsCapacity {
            public var item: DynamoItem?
            public var consumedCapacity: ConsumedCapacity?
            enum CodingKeys: String, CodingKey { case item = "Item", consumedCapacity = "ConsumedCapacity" }
        }
    }

    public struct PutItem: Operation {
        public static let name = "PutItem"
        public static let writes = true
        public typealias Response = WriteResponse
        public var tableName: String
        public var item: DynamoItem
        public var conditionExpression: String?
        public var expressionAttributeNames: [String: String]?
        public var expressionAttributeValues: DynamoItem?
        /// nil by default: a put inside a transaction may not carry it (the transaction does).
        public var returnConsumedCapacity: String?
        public init(tableName: String, item: DynamoItem, condition: Condition? = nil) {
            (self.tableName, self.item) = (tableName, item)
            conditionExpression = condition?.expression
            expressionAttributeNames = condition?.names
            expressionAttributeValues = condition?.values
        }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", item = "Item", conditionExpression = "ConditionExpression"
            case expressionAttributeNames = "ExpressionAttributeNames", expressionAttributeValues = "ExpressionAttributeValues"
            case returnConsumedCapacity = "ReturnConsumedCapacity"
        }
    }

    public struct DeleteItem: Operation {
        public static let name = "DeleteItem"
        public static let writes = true
        public typealias Response = WriteResponse
        public var tableName: String
        public var key: DynamoItem
        public var conditionExpression: String?
        public var expressionAttributeNames: [String: String]?
        public var expressionAttributeValues: DynamoItem?
        public var returnConsumedCapacity: String? = totalCapacity
        public init(tableName: String, key: DynamoItem, condition: Condition? = nil) {
            (self.tableName, self.key) = (tableName, key)
            conditionExpression = condition?.expression
            expressionAttributeNames = condition?.names
            expressionAttributeValues = condition?.values
        }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", key = "Key", conditionExpression = "ConditionExpression"
            case expressionAttributeNames = "ExpressionAttributeNames", expressionAttributeValues = "ExpressionAttributeValues"
            case returnConsumedCapacity = "ReturnConsumedCapacity"
        }
    }

    /// A condition on an item that a transaction does not change (an action of
    /// `TransactWriteItems`): the transaction is cancelled if the item no longer meets it.
    public struct ConditionCheck: Encodable, Sendable {
        public var tableName: String
        public var key: DynamoItem
        public var conditionExpression: String
        public var expressionAttributeNames: [String: String]?
        public var expressionAttributeValues: DynamoItem?
        public init(tableName: String, key: DynamoItem, condition: Condition) {
            (self.tableName, self.key) = (tableName, key)
            conditionExpression = condition.expression
            expressionAttributeNames = condition.names
            expressionAttributeValues = condition.values
        }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", key = "Key", conditionExpression = "ConditionExpression"
            case expressionAttributeNames = "ExpressionAttributeNames", expressionAttributeValues = "ExpressionAttributeValues"
        }
    }

    public struct UpdateItem: Operation {
        public static let name = "UpdateItem"
        public static let writes = true
        public typealias Response = WriteResponse
        public var returnConsumedCapacity: String? = totalCapacity
        public var tableName: String
        public var key: DynamoItem
        public var updateExpression: String
        public var conditionExpression: String
        public var expressionAttributeNames: [String: String]
        public var expressionAttributeValues: DynamoItem
        public init(tableName: String, key: DynamoItem, update: String, condition: Condition) {
            (self.tableName, self.key, updateExpression) = (tableName, key, update)
            conditionExpression = condition.expression
            expressionAttributeNames = condition.names
            expressionAttributeValues = condition.values ?? [:]
        }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", key = "Key", updateExpression = "UpdateExpression"
            case conditionExpression = "ConditionExpression", returnConsumedCapacity = "ReturnConsumedCapacity"
            case expressionAttributeNames = "ExpressionAttributeNames", expressionAttributeValues = "ExpressionAttributeValues"
        }
    }

    public struct Scan: Operation {
        public static let name = "Scan"
        public var tableName: String
        public var consistentRead = true
        public var limit: Int?
        public var segment: Int?
        public var totalSegments: Int?
        /// `COUNT` to count only.
        public var select: String?
        public var exclusiveStartKey: DynamoItem?
        public var filterExpression: String?
        public var expressionAttributeNames: [String: String]?
        public var expressionAttributeValues: DynamoItem?
        public var returnConsumedCapacity: String? = totalCapacity
        public init(tableName: String) { self.tableName = tableName }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", consistentRead = "ConsistentRead", limit = "Limit", segment = "Segment"
            case totalSegments = "TotalSegments", select = "Select", exclusiveStartKey = "ExclusiveStartKey"
            case filterExpression = "FilterExpression", expressionAttributeNames = "ExpressionAttributeNames"
            case expressionAttributeValues = "ExpressionAttributeValues", returnConsumedCapacity = "ReturnConsumedCapacity"
        }
        public typealias Response = ItemsPage
    }

    /// The items of a table whose hash key has one value (and whose range key, if the
    /// condition names it, satisfies it), a page at a time.
    public struct Query: Operation {
        public static let name = "Query"
        public var tableName: String
        public var consistentRead = true
        public var keyConditionExpression: String
        public var filterExpression: String?
        public var expressionAttributeNames: [String: String]
        public var expressionAttributeValues: DynamoItem
        public var exclusiveStartKey: DynamoItem?
        public var returnConsumedCapacity: String? = totalCapacity
        public init(tableName: String, keyCondition: String, filter: String?, names: [String: String], values: DynamoItem) {
            (self.tableName, keyConditionExpression, filterExpression) = (tableName, keyCondition, filter)
            (expressionAttributeNames, expressionAttributeValues) = (names, values)
        }
        enum CodingKeys: String, CodingKey {
            case tableName = "TableName", consistentRead = "ConsistentRead", keyConditionExpression = "KeyConditionExpression"
            case filterExpression = "FilterExpression", expressionAttributeNames = "ExpressionAttributeNames"
            case expressionAttributeValues = "ExpressionAttributeValues", exclusiveStartKey = "ExclusiveStartKey"
            case returnConsumedCapacity = "ReturnConsumedCapacity"
        }
        public typealias Response = ItemsPage
    }

    /// A page of a Scan or a Query.
    public struct ItemsPage: Decodable, Sendable, ReportsCapacity {
        public var items: [DynamoItem]?
        public var count: Int?
        public var lastEvaluatedKey: DynamoItem?
        public var consumedCapacity: ConsumedCapacity?
        enum CodingKeys: String, CodingKey {
            case items = "Items", count = "Count", lastEvaluatedKey = "LastEvaluatedKey", consumedCapacity = "ConsumedCapacity"
        }
    }

    // MARK: Batches and transactions

    public struct KeysAndAttributes: Codable, Sendable {
        public var keys: [DynamoItem]
        public var consistentRead: Bool?
        public init(keys: [DynamoItem], consistentRead: Bool? = true) { (self.keys, self.consistentRead) = (keys, consistentRead) }
        enum CodingKeys: String, CodingKey { case keys = "Keys", consistentRead = "ConsistentRead" }
    }

    public struct BatchGetItem: Operation {
        public static let name = "BatchGetItem"
        public var requestItems: [String: KeysAndAttributes]
        public var returnConsumedCapacity: String? = totalCapacity
        public init(requestItems: [String: KeysAndAttributes]) { self.requestItems = requestItems }
        enum CodingKeys: String, CodingKey { case requestItems = "RequestItems", returnConsumedCapacity = "ReturnConsumedCapacity" }
        public struct Response: Decodable, Sendable, ReportsCapacity {
            public var responses: [String: [DynamoItem]]?
            public var unprocessedKeys: [String: KeysAndAttributes]?
            public var consumedCapacity: ConsumedCapacity?
            enum CodingKeys: String, CodingKey {
                case responses = "Responses", unprocessedKeys = "UnprocessedKeys", consumedCapacity = "ConsumedCapacity"
            }
        }
    }

    public struct WriteRequest: Codable, Sendable {
        public struct Put: Codable, Sendable {
            public var item: DynamoItem
            enum CodingKeys: String, CodingKey { case item = "Item" }
        }
        public struct Delete: Codable, Sendable {
            public var key: DynamoItem
            enum CodingKeys: String, CodingKey { case key = "Key" }
        }
        public var putRequest: Put?
        public var deleteRequest: Delete?
        public init(put item: DynamoItem) { putRequest = Put(item: item) }
        enum CodingKeys: String, CodingKey { case putRequest = "PutRequest", deleteRequest = "DeleteRequest" }
    }

    public struct BatchWriteItem: Operation {
        public static let name = "BatchWriteItem"
        public static let writes = true
        public var requestItems: [String: [WriteRequest]]
        public var returnConsumedCapacity: String? = totalCapacity
        public init(requestItems: [String: [WriteRequest]]) { self.requestItems = requestItems }
        enum CodingKeys: String, CodingKey { case requestItems = "RequestItems", returnConsumedCapacity = "ReturnConsumedCapacity" }
        public struct Response: Decodable, Sendable, ReportsCapacity {
            public var unprocessedItems: [String: [WriteRequest]]?
            public var consumedCapacity: ConsumedCapacity?
            enum CodingKeys: String, CodingKey { case unprocessedItems = "UnprocessedItems", consumedCapacity = "ConsumedCapacity" }
        }
    }

    public struct TransactWriteItems: Operation {
        public static let name = "TransactWriteItems"
        public static let writes = true
        public typealias Response = WriteResponse
        /// One action of the transaction: a write, a delete, or a condition on an item it leaves
        /// as it is. None may carry `ReturnConsumedCapacity` (the transaction does).
        public enum Action: Encodable, Sendable {
            case put(PutItem)
            case delete(DeleteItem)
            case conditionCheck(ConditionCheck)

            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                switch self {
                case .put(let put): try container.encode(put, forKey: .put)
                case .delete(let delete): try container.encode(delete, forKey: .delete)
                case .conditionCheck(let check): try container.encode(check, forKey: .conditionCheck)
                }
            }
            enum CodingKeys: String, CodingKey { case put = "Put", delete = "Delete", conditionCheck = "ConditionCheck" }
        }
        public var clientRequestToken: String
        public var transactItems: [Action]
        public var returnConsumedCapacity: String? = totalCapacity
        public init(actions: [Action], token: String = UUID().uuidString) {
            clientRequestToken = token
            transactItems = actions
        }
        public init(puts: [PutItem], token: String = UUID().uuidString) {
            self.init(actions: puts.map(Action.put), token: token)
        }
        enum CodingKeys: String, CodingKey {
            case clientRequestToken = "ClientRequestToken", transactItems = "TransactItems", returnConsumedCapacity = "ReturnConsumedCapacity"
        }
    }
}
