/// `s3://bucket/key` taken apart (docs/pipeline.md#s3-sources). A key may hold glob characters (`*`, `?`, `[…]`)
/// when it names several objects.
package struct S3Location: Sendable, Equatable, CustomStringConvertible {
    package static let scheme = "s3://"

    package let bucket: String
    package let key: String

    /// Parses `s3://bucket/key`; nil when `text` is not an S3 URL with a bucket.
    package init?(_ text: String) {
        guard text.hasPrefix(Self.scheme) else { return nil }
        let rest = text.dropFirst(Self.scheme.count)
        let bucket = rest.prefix { $0 != "/" }
        guard !bucket.isEmpty else { return nil }
        self.bucket = String(bucket)
        key = String(rest.dropFirst(bucket.count + 1))
    }

    package init(bucket: String, key: String) {
        self.bucket = bucket
        self.key = key
    }

    package var description: String { "\(Self.scheme)\(bucket)/\(key)" }

    /// Whether the key is a pattern (`*`, `?` or `[`).
    package var isPattern: Bool { key.contains { "*?[".contains($0) } }

    /// The part of the key before its first glob character: what ListObjectsV2 lists.
    package var listingPrefix: String { String(key.prefix { !"*?[".contains($0) }) }
}
