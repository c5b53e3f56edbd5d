import ImporterCore

/// RFC 4180: a header row of attribute names, CRLF line ends, a cell quoted when it holds a
/// comma, quote, CR or LF. A null is an empty unquoted cell and an empty text is `""`, so
/// importer (`nullValues: [""]`) tells them apart; `sqlite3 .import` reads both as ''.
struct CSVItemEncoder: ItemEncoder {
    let header: [UInt8]

    init(entity: Entity) {
        var header: [UInt8] = []
        for (index, attribute) in entity.attributes.enumerated() {
            if index > 0 { header.append(UInt8(ascii: ",")) }
            Self.appendCell(attribute.name, to: &header)
        }
        header.append(contentsOf: "\r\n".utf8)
        self.header = header
    }

    func append(_ item: [Value], to bytes: inout [UInt8]) {
        for (index, value) in item.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            switch value {
            case .null: break
            case .string(let text): Self.appendCell(text, to: &bytes)
            case .decimal(let text): bytes.appendText(text)
            case .integer(let number): bytes.appendDecimal(number)
            case .double(let number): bytes.appendDouble(number)
            case .boolean(let flag): bytes.append(contentsOf: flag ? "true".utf8 : "false".utf8)
            case .date(let millis): bytes.appendDate(millis)
            }
        }
        bytes.append(contentsOf: "\r\n".utf8)
    }

    private static func appendCell(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            let needsQuotes = utf8.isEmpty || utf8.contains { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }
            guard needsQuotes else { return bytes.append(contentsOf: utf8) }
            bytes.append(34)
            for byte in utf8 {
                if byte == 34 { bytes.append(34) }
                bytes.append(byte)
            }
            bytes.append(34)
        }
    }
}
