import ImporterCore

/// `{"name":"Café","visits":3,"rating":4.5,"price":12.50,"at":"2024-01-01T00:00:00.000Z","open":true}`:
/// every attribute in model order, nulls as `null`, decimals as exact number literals.
struct NDJSONItemEncoder: ArchiveItemEncoder {
    /// `"name":` for each attribute, with `{` or `,` in front.
    private let keys: [[UInt8]]
    private let kinds: [CellKind]

    init(entity: Entity) {
        keys = jsonKeys(of: entity).enumerated().map { [$0 == 0 ? UInt8(ascii: "{") : UInt8(ascii: ",")] + $1 }
        kinds = entity.attributes.map { CellKind($0.type) }
    }

    var header: [UInt8] { [] }

    func append(_ row: any StoredRow, to bytes: inout [UInt8]) {
        for (index, kind) in kinds.enumerated() {
            bytes.append(contentsOf: keys[index])
            if row.isNull(index) {
                bytes.append(contentsOf: "null".utf8)
                continue
            }
            switch kind {
            case .text, .date: row.withText(index) { JSONText.appendQuoted($0, to: &bytes) }
            case .decimal: row.withText(index) { bytes.append(contentsOf: $0) }
            case .integer: bytes.appendDecimal(row.integer(index))
            case .double: bytes.appendDouble(row.double(index))
            case .boolean: bytes.append(contentsOf: row.integer(index) != 0 ? "true".utf8 : "false".utf8)
            case .binary:
                bytes.append(UInt8(ascii: "\""))
                bytes.appendBase64(row, index)
                bytes.append(UInt8(ascii: "\""))
            }
        }
        bytes.append(contentsOf: "}\n".utf8)
    }
}
