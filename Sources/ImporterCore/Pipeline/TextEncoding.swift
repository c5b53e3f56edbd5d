/// The character encoding of a source's text, its `encoding:` (docs/pipeline.md#encodings).
///
/// Readers parse UTF-8; any other encoding is decoded to UTF-8 before them, chunk by chunk. A
/// byte (or UTF-16 code unit) the encoding does not map is an `encoding` rejection of the
/// record holding it, never a replacement character.
package enum TextEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    case utf16LE = "utf-16le"
    case utf16BE = "utf-16be"
    /// UTF-16 in the byte order its byte order mark gives (the mark is required).
    case utf16 = "utf-16"
    case windows1252 = "windows-1252"
    case iso88591 = "iso-8859-1"

    /// Names accepted besides the canonical ones, lowercased.
    private static let aliases: [String: TextEncoding] = [
        "utf8": .utf8, "utf16le": .utf16LE, "utf16be": .utf16BE, "utf16": .utf16,
        "cp1252": .windows1252, "latin1": .iso88591, "latin-1": .iso88591, "iso8859-1": .iso88591,
    ]

    /// The encoding named `name` (case-insensitive; `cp1252` and `latin1` are aliases).
    package init?(name: String) {
        let lowered = name.lowercased()
        guard let encoding = TextEncoding(rawValue: lowered) ?? Self.aliases[lowered] else { return nil }
        self = encoding
    }

    /// The values `encoding:` accepts, for messages.
    package static let accepted =
        "utf-8 (the default), utf-16le, utf-16be, utf-16 (with a byte order mark), windows-1252 (cp1252) or iso-8859-1 (latin1)"
}
