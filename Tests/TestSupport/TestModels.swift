/// Model files the tests of several targets share.
public enum TestModels {
    /// Readings keyed by (stationId, hour), and alerts that name a reading by both (SPEC §14).
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

    /// Documents keyed by a UUID, with a URI and bytes (SPEC §14's Core Data types).
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
}
