/// JSON pointers (RFC 6901), as a document's problems name where they are (docs/documents.md#rejections).
enum JSONPointer {
    /// A key as a pointer writes it: `~` as `~0`, `/` as `~1`.
    static func escaped(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
