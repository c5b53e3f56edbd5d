/// DynamoDB's attribute type descriptors, as exports and the JSON protocol write them.
package enum DynamoDBTypes {
    /// The types a value of a set, list or map has: stored as JSON text in a string attribute only.
    package static let collections: Set<String> = ["SS", "NS", "BS", "L", "M"]

    /// What a descriptor means, for messages: `SS` → "string set".
    package static func name(of type: String) -> String {
        switch type {
        case "S": return "string"
        case "N": return "number"
        case "B": return "binary"
        case "BOOL": return "boolean"
        case "NULL": return "null"
        case "SS": return "string set"
        case "NS": return "number set"
        case "BS": return "binary set"
        case "L": return "list"
        case "M": return "map"
        default: return "unknown type"
        }
    }
}
