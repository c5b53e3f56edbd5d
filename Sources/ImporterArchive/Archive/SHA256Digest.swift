import CNettle
import ImporterCore

/// Streaming SHA-256 by nettle (SHA-NI where the CPU has it): archives hash every data byte
/// on export and twice on restore, so the hash must keep up with compression.
struct SHA256Digest {
    private var context = sha256_ctx()

    init() { nettle_sha256_init(&context) }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        nettle_sha256_update(&context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The lowercase hex digest (the context is reset afterwards).
    mutating func hexDigest() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        nettle_sha256_digest(&context, 32, &digest)
        return JSONText.hex(digest)
    }
}
