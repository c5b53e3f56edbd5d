import ImporterCore

/// RFC 4180: a header row of attribute names, CRLF line ends, a cell quoted when it holds a
/// comma, quote, CR or LF. A null is an empty unquoted cell and an empty text is `""`, so
/// importer (`nullValues: [""]`) tells them apart; `sqlite3 .import` reads both as ''.
struct CSVItemEncoder: ArchiveItemEncoder {
    let header: [UInt8]
    private let kinds: [CellKind]

    init(entity: Entity) {
        var header: [UInt8] = []
        for (index, attribute) in entity.attributes.enumerated() {
            if index > 0 { header.append(UInt8(ascii: ",")) }
            var name = attribute.name
            name.withUTF8 { Self.appendCell($0, to: &header) }
        }
        header.append(contentsOf: "\r\n".utf8)
        self.header = header
        kinds = entity.attributes.map { CellKind($0.type) }
    }

    func append(_ row: any StoredRow, to bytes: inout [UInt8]) {
        for (index, kind) in kinds.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if row.isNull(index) { continue }
            switch kind {
            case .text: row.withText(index) { Self.appendCell($0, to: &bytes) }
            case .decimal, .date: row.withText(index) { bytes.append(contentsOf: $0) }
            case .integer: bytes.appendDecimal(row.integer(index))
            case .double: bytes.appendDouble(row.double(index))
            case .boolean: bytes.append(contentsOf: row.integer(index) != 0 ? "true".utf8 : "false".utf8)
            case .binary:
                // A–Z a–z 0–9 + / = need no quotes; empty bytes are a quoted empty cell, not null.
                if row.withBytes(index, { $0.isEmpty }) {
                    bytes.append(contentsOf: "\"\"".utf8)
                } else {
                    bytes.appendBase64(row, index)
                }
            }
        }
        bytes.append(contentsOf: "\r\n".utf8)
    }

    private static func appendCell(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        guard text.isEmpty || ByteScan.needsCSVQuotes(text) else { return bytes.append(contentsOf: text) }
        bytes.append(34)
        for byte in text {
            if byte == 34 { bytes.append(34) }
            bytes.append(byte)
        }
        bytes.append(34)
    }
}
