/// Recognises UTF-16 text, which the readers take for UTF-8 row after row otherwise.
enum UTF16Text {
    /// `UTF-16LE` or `UTF-16BE` when `bytes` (an input's first bytes) start with a UTF-16 byte
    /// order mark, or without one with a character of the first 256 whose other byte is 0 (text
    /// starts with neither a NUL nor a character past U+00FF); nil otherwise.
    static func detect(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 2 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0xFF, 0xFE): return "UTF-16LE"
        case (0xFE, 0xFF): return "UTF-16BE"
        case (let first, 0) where first != 0: return "UTF-16LE"
        case (0, let second) where second != 0: return "UTF-16BE"
        default: return nil
        }
    }
}
