internal import CNettle

/// Streaming MD5 (nettle's), for the checksums DynamoDB exports record (base64 of the digest):
/// an integrity check of files someone else wrote, never a security measure.
package struct MD5Digest {
    private var context = md5_ctx()

    package init() {
        nettle_md5_init(&context)
    }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        nettle_md5_update(&context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
    }

    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 16 digest bytes (the hasher starts over afterwards).
    package mutating func digest() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(MD5_DIGEST_SIZE))
        nettle_md5_digest(&context, out.count, &out)
        return out
    }

    /// The digest in base64, as S3's Content-MD5 and DynamoDB's export manifests write it.
    package mutating func base64Digest() -> String {
        Base64.encode(digest())
    }
}
