/// Model files the tests of several targets share.
public enum TestModels {
    /// Readings keyed by (stationId, hour), and alerts that name a reading by both (docs/model.md#composite-keys).
    /// `hour` is the type of the hour attribute (`int32`, `date`).
    public static func weather(hour: String) -> String {
        """
        model: Weather
        version: 1
        entities:
          Reading:
            hashKey: stationId
            rangeKey: hour
            versionAttribute: version
            attributes:
              stationId:   { type: string }
              hour:        { type: \(hour) }
              temperature: { type: double }
              version:     { type: int64 }
            relationships:
              alerts: { destination: Alert, toMany: true, inverse: reading, deleteRule: cascade }
          Alert:
            hashKey: alertId
            versionAttribute: version
            attributes:
              alertId:   { type: string }
              stationId: { type: string }
              hour:      { type: \(hour) }
              version:   { type: int64 }
            relationships:
              reading: { destination: Reading, key: [stationId, hour], inverse: alerts }
        """
    }

    /// Documents keyed by a UUID, with a URI and bytes (the Core Data types, docs/model.md).
    public static let files = """
        model: Files
        version: 1
        entities:
          Document:
            hashKey: id
            versionAttribute: version
            attributes:
              id: { type: uuid }
              source: { type: uri }
              thumbnail: { type: binary }
              version: { type: int64 }
        """

    /// One entity with a two-letter name: a table SQLite takes and DynamoDB refuses (3 to 255
    /// characters). The entity's mapping starts on line 5.
    public static let twoLetterEntity = """
        model: Shop
        version: 1
        entities:
          AB:
            hashKey: id
            versionAttribute: version
            attributes:
              id: { type: string }
              version: { type: int64 }
        """

    /// Orders as a DynamoDB export holds them: exact decimals, bytes, a set kept as JSON text in a
    /// string attribute, and an int64 attribute a map cannot go into.
    public static let orders = """
        model: Orders
        version: 1
        entities:
          Order:
            hashKey: orderId
            versionAttribute: version
            attributes:
              orderId:  { type: string }
              amount:   { type: decimal }
              quantity: { type: int64 }
              receipt:  { type: binary }
              tags:     { type: string }
              paid:     { type: boolean }
              note:     { type: string }
              details:  { type: int64 }
              version:  { type: int64 }
        """

    /// Item lines of `Order`s for a DynamoDB export: in the first file a large N kept exactly, B,
    /// a string set, NULL; the second file's last item has a map in `details` (an int64): rejected.
    public static let orderExportFiles: [(name: String, lines: [String])] = [
        (
            "a1b2c3d4e5f6g7h8",
            [
                #"{"Item":{"orderId":{"S":"o-1"},"amount":{"N":"12345678901234567890.123456789"},"quantity":{"N":"3"},"receipt":{"B":"AAEC+v8="},"tags":{"SS":["gift","rush"]},"paid":{"BOOL":true},"note":{"NULL":true}}}"#,
                #"{"Item":{"orderId":{"S":"o-2"},"amount":{"N":"-0.10"},"quantity":{"N":"9223372036854775807"},"paid":{"BOOL":false},"note":{"S":"Café \"Zoë\""},"tags":{"L":[{"S":"a"},{"N":"1.50"}]}}}"#,
            ]
        ),
        (
            "i9j0k1l2m3n4o5p6",
            [
                #"{"Item":{"orderId":{"S":"o-3"},"amount":{"N":"1E+2"},"tags":{"M":{"k":{"S":"v"}}}}}"#,
                #"{"Item":{"orderId":{"S":"o-4"},"details":{"M":{"k":{"N":"1"}}}}}"#,
            ]
        ),
    ]
}
