/// An item's key as reports write it (docs/model.md#composite-keys): the key's text, or for a (hash, range) key a
/// JSON array of both texts.
package enum ReportedKey: Codable, Sendable, Equatable {
    case single(String)
    case pair(String, String)

    /// Nil for a null key.
    package init?(_ key: Value) {
        switch key {
        case .null: return nil
        case .pair(let hash, let range): self = .pair(hash.description, range.description)
        default: self = .single(key.description)
        }
    }

    /// `"P1"` or `["ST1","2024-06-01T10:00:00.000Z"]`.
    package var json: String {
        switch self {
        case .single(let text): JSONText.quote(text)
        case .pair(let hash, let range): "[\(JSONText.quote(hash)),\(JSONText.quote(range))]"
        }
    }

    package init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .single(text)
        } else {
            let parts = try container.decode([String].self)
            guard parts.count == 2 else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "a key is a text or [hash, range]")
            }
            self = .pair(parts[0], parts[1])
        }
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .single(let text): try container.encode(text)
        case .pair(let hash, let range): try container.encode([hash, range])
        }
    }
}
