internal import CNettle

/// SHA-256 in lowercase hex, nettle's: SigV4's payload and canonical-request hashes.
enum PayloadHash {
    static func hex(of bytes: [UInt8]) -> String {
        var context = sha256_ctx()
        nettle_sha256_init(&context)
        nettle_sha256_update(&context, bytes.count, bytes)
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        nettle_sha256_digest(&context, digest.count, &digest)
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }
}
