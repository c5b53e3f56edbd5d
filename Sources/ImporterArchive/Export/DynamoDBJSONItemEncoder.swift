import ImporterCore

/// DynamoDB's export to S3 line format, `{"Item":{"name":{"S":"Café"},"visits":{"N":"3"},"open":{"BOOL":true}}}`,
/// with the store's attribute types of SPEC §5 (dates as ISO text in S) and nulls omitted.
struct DynamoDBJSONItemEncoder: ItemEncoder {
    /// `"name":` for each attribute.
    private let keys: [[UInt8]]

    init(entity: Entity) {
        keys = entity.attributes.map { attribute in
            var key: [UInt8] = []
            JSONText.appendQuoted(attribute.name, to: &key)
            key.append(UInt8(ascii: ":"))
            return key
        }
    }

    var header: [UInt8] { [] }

    func append(_ item: [Value], to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"Item":{"#.utf8)
        var first = true
        for (index, value) in item.enumerated() where !value.isNull {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            bytes.append(contentsOf: keys[index])
            switch value {
            case .null: break
            case .string(let text):
                bytes.append(contentsOf: #"{"S":"#.utf8)
                JSONText.appendQuoted(text, to: &bytes)
            case .date(let millis):
                bytes.append(contentsOf: #"{"S":""#.utf8)
                bytes.appendDate(millis)
                bytes.append(UInt8(ascii: "\""))
            case .decimal(let text):
                bytes.append(contentsOf: #"{"N":""#.utf8)
                bytes.appendText(text)
                bytes.append(UInt8(ascii: "\""))
            case .integer(let number):
                bytes.append(contentsOf: #"{"N":""#.utf8)
                bytes.appendDecimal(number)
                bytes.append(UInt8(ascii: "\""))
            case .double(let number):
                bytes.append(contentsOf: #"{"N":""#.utf8)
                bytes.appendDouble(number)
                bytes.append(UInt8(ascii: "\""))
            case .boolean(let flag):
                bytes.append(contentsOf: flag ? #"{"BOOL":true"#.utf8 : #"{"BOOL":false"#.utf8)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(contentsOf: "}}\n".utf8)
    }
}
