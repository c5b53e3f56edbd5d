import ImporterCore

/// How an archive's data files are written (docs/archives.md).
package enum ExportFormat: String, Sendable, CaseIterable, Codable {
    /// One JSON object per line, values typed as in docs/values.md.
    case ndjson
    /// RFC 4180 with a header row; a null is an empty unquoted cell, an empty text `""`.
    case csv
    /// DynamoDB's export format: `{"Item":{"attr":{"S":"…"}}}` per line, nulls omitted.
    case dynamodbJSON = "dynamodb-json"

    var fileExtension: String {
        switch self {
        case .ndjson: return "ndjson"
        case .csv: return "csv"
        case .dynamodbJSON: return "json"
        }
    }

    /// The pipeline input format that reads the data files back.
    package var inputFormat: InputFormat {
        switch self {
        case .ndjson: return .ndjson
        case .csv: return .csv
        case .dynamodbJSON: return .dynamodbJSON
        }
    }

    func encoder(for entity: Entity) -> ArchiveItemEncoder {
        switch self {
        case .ndjson: return NDJSONItemEncoder(entity: entity)
        case .csv: return CSVItemEncoder(entity: entity)
        case .dynamodbJSON: return DynamoDBJSONItemEncoder(entity: entity)
        }
    }
}
