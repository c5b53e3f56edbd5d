import ImporterCore

/// `{"name":"Café","visits":3,"rating":4.5,"price":12.50,"at":"2024-01-01T00:00:00.000Z","open":true}`:
/// every attribute in model order, nulls as `null`, decimals as exact number literals.
struct NDJSONItemEncoder: ItemEncoder {
    /// `"name":` for each attribute, with `{` or `,` in front.
    private let keys: [[UInt8]]

    init(entity: Entity) {
        keys = entity.attributes.enumerated().map { index, attribute in
            var key: [UInt8] = [index == 0 ? UInt8(ascii: "{") : UInt8(ascii: ",")]
            JSONText.appendQuoted(attribute.name, to: &key)
            key.append(UInt8(ascii: ":"))
            return key
        }
    }

    var header: [UInt8] { [] }

    func append(_ item: [Value], to bytes: inout [UInt8]) {
        for (index, value) in item.enumerated() {
            bytes.append(contentsOf: keys[index])
            switch value {
            case .null: bytes.append(contentsOf: "null".utf8)
            case .string(let text): JSONText.appendQuoted(text, to: &bytes)
            case .decimal(let text): bytes.appendText(text)
            case .integer(let number): bytes.appendDecimal(number)
            case .double(let number): bytes.appendDouble(number)
            case .boolean(let flag): bytes.append(contentsOf: flag ? "true".utf8 : "false".utf8)
            case .date(let millis):
                bytes.append(UInt8(ascii: "\""))
                bytes.appendDate(millis)
                bytes.append(UInt8(ascii: "\""))
            }
        }
        bytes.append(contentsOf: "}\n".utf8)
    }
}
