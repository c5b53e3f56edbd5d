/// JSON string literals without a serializer: streamed lines such as rejects.ndjson, and
/// DynamoDB items.
public enum JSONText {
    /// `text` as a quoted JSON string.
    public static func quote(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a quoted JSON string: quotes, backslashes and control characters
    /// escaped, everything else (non-ASCII included) as its UTF-8 bytes.
    public static func appendQuoted(_ text: String, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): json.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): json.append(contentsOf: #"\\"#.utf8)
            case 0x0A: json.append(contentsOf: #"\n"#.utf8)
            case 0x0D: json.append(contentsOf: #"\r"#.utf8)
            case 0x09: json.append(contentsOf: #"\t"#.utf8)
            case 0x08: json.append(contentsOf: #"\b"#.utf8)
            case 0x0C: json.append(contentsOf: #"\f"#.utf8)
            case 0x00..<0x20:
                json.append(contentsOf: #"\u00"#.utf8)
                json.append(hexDigits[Int(byte >> 4)])
                json.append(hexDigits[Int(byte & 0x0F)])
            default: json.append(byte)
            }
        }
        json.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
