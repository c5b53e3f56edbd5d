internal import CNettle

/// SHA-256 for model checksums, input fingerprints, archives and SigV4: nettle's (a system
/// library, with SHA-NI on x86-64), with the lowercase hex digest the package records.
package enum SHA256 {
    /// The lowercase hex digest of `bytes`.
    package static func hex(of bytes: [UInt8]) -> String {
        var digest = SHA256Digest()
        digest.update(bytes)
        return digest.hexDigest()
    }
}

/// Streaming SHA-256: archives hash every data byte on export and twice on restore, so the hash
/// must keep up with compression (1 GiB in about 0.7 s here, BENCHMARKS.md).
package struct SHA256Digest {
    private var context = sha256_ctx()

    package init() {
        nettle_sha256_init(&context)
    }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        nettle_sha256_update(&context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
    }

    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32 digest bytes (the hasher starts over afterwards, as nettle's does).
    package mutating func digest() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        nettle_sha256_digest(&context, out.count, &out)
        return out
    }

    /// The lowercase hex digest (the hasher starts over afterwards).
    package mutating func hexDigest() -> String {
        JSONText.hex(digest())
    }
}
