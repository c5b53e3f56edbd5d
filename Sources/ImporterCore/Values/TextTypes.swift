import Foundation

/// UUID text: 32 hex digits, with or without the 8-4-4-4-12 hyphens, any case.
package enum UUIDText {
    /// The canonical lower-case hyphenated form, or nil.
    package static func canonical(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        let hex: [UInt8]
        switch bytes.count {
        case 32: hex = bytes
        case 36:
            guard [8, 13, 18, 23].allSatisfy({ bytes[$0] == UInt8(ascii: "-") }) else { return nil }
            hex = bytes.enumerated().filter { ![8, 13, 18, 23].contains($0.offset) }.map(\.element)
        default: return nil
        }
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (index, byte) in hex.enumerated() {
            let lower: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): lower = byte
            case UInt8(ascii: "A")...UInt8(ascii: "F"): lower = byte + 32
            default: return nil
            }
            if [8, 12, 16, 20].contains(index) { out.append(UInt8(ascii: "-")) }
            out.append(lower)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// URI text (RFC 3986): an absolute URI has a scheme, `[A-Za-z][A-Za-z0-9+.-]*:`, and no
/// spaces or control characters.
enum URIText {
    static func isAbsolute(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon < bytes.count - 1 else {
            return false
        }
        let scheme = bytes[..<colon]
        guard isLetter(scheme.first!), scheme.allSatisfy({ isLetter($0) || isDigit($0) || "+.-".utf8.contains($0) })
        else { return false }
        return bytes.allSatisfy { $0 > 32 && $0 != 127 }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
}

/// Base64 (RFC 4648, standard alphabet, padded), the text form of binary values.
package enum Base64 {
    package static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// The bytes, or nil when `text` is not padded standard base64.
    package static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.count % 4 == 0, let data = Data(base64Encoded: text) else { return nil }
        return Array(data)
    }
}
