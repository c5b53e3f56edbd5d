/// JSON string literals without a serializer: streamed lines such as rejects.ndjson, and
/// DynamoDB items.
package enum JSONText {
    /// `text` as a quoted JSON string.
    package static func quote(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a quoted JSON string: quotes, backslashes and control characters
    /// escaped, everything else (non-ASCII included) as its UTF-8 bytes.
    package static func appendQuoted(_ text: String, to json: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendQuoted($0, to: &json) }
    }

    /// `appendQuoted` for UTF-8 bytes; runs without escapes are copied whole.
    package static func appendQuoted(_ text: UnsafeBufferPointer<UInt8>, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "\""))
        guard ByteScan.needsJSONEscapes(text) else {
            json.append(contentsOf: text)
            return json.append(UInt8(ascii: "\""))
        }
        var start = 0
        for (index, byte) in text.enumerated() where byte < 0x20 || byte == 34 || byte == 92 {
            json.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<index]))
            switch byte {
            case UInt8(ascii: "\""): json.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): json.append(contentsOf: #"\\"#.utf8)
            case 0x0A: json.append(contentsOf: #"\n"#.utf8)
            case 0x0D: json.append(contentsOf: #"\r"#.utf8)
            case 0x09: json.append(contentsOf: #"\t"#.utf8)
            case 0x08: json.append(contentsOf: #"\b"#.utf8)
            case 0x0C: json.append(contentsOf: #"\f"#.utf8)
            default:
                json.append(contentsOf: #"\u00"#.utf8)
                json.append(hexDigits[Int(byte >> 4)])
                json.append(hexDigits[Int(byte & 0x0F)])
            }
            start = index + 1
        }
        json.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
        json.append(UInt8(ascii: "\""))
    }

    /// Lowercase hex of `bytes` (digests).
    package static func hex(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Valid JSON `text` without the whitespace between its tokens (strings keep theirs): how an
    /// object or array is stored in a string attribute (docs/values.md).
    package static func compact(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var inString = false, escaped = false
        for byte in text.utf8 {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == 32 || byte == 10 || byte == 13 || byte == 9 {
                continue
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
