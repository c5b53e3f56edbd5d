import ImporterCore

/// DynamoDB's export to S3 line format, `{"Item":{"name":{"S":"Café"},"visits":{"N":"3"},"open":{"BOOL":true}}}`,
/// with the store's attribute types of docs/values.md (dates as ISO text in S) and nulls omitted.
struct DynamoDBJSONItemEncoder: ArchiveItemEncoder {
    /// `"name":` for each attribute.
    private let keys: [[UInt8]]
    private let kinds: [CellKind]

    init(entity: Entity) {
        keys = jsonKeys(of: entity)
        kinds = entity.attributes.map { CellKind($0.type) }
    }

    var header: [UInt8] { [] }

    func append(_ row: any StoredRow, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"Item":{"#.utf8)
        var first = true
        for (index, kind) in kinds.enumerated() where !row.isNull(index) {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            bytes.append(contentsOf: keys[index])
            switch kind {
            case .text, .date:
                bytes.append(contentsOf: #"{"S":"#.utf8)
                row.withText(index) { JSONText.appendQuoted($0, to: &bytes) }
            case .decimal:
                bytes.append(contentsOf: #"{"N":""#.utf8)
                row.withText(index) { bytes.append(contentsOf: $0) }
                bytes.append(UInt8(ascii: "\""))
            case .integer:
                bytes.append(contentsOf: #"{"N":""#.utf8)
                bytes.appendDecimal(row.integer(index))
                bytes.append(UInt8(ascii: "\""))
            case .double:
                bytes.append(contentsOf: #"{"N":""#.utf8)
                bytes.appendDouble(row.double(index))
                bytes.append(UInt8(ascii: "\""))
            case .boolean:
                bytes.append(contentsOf: row.integer(index) != 0 ? #"{"BOOL":true"#.utf8 : #"{"BOOL":false"#.utf8)
            case .binary:
                bytes.append(contentsOf: #"{"B":""#.utf8)
                bytes.appendBase64(row, index)
                bytes.append(UInt8(ascii: "\""))
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(contentsOf: "}}\n".utf8)
    }
}
