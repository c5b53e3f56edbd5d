internal import CNettle

/// HMAC-SHA256 (RFC 2104), nettle's: SigV4's key chain and signature.
enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var context = hmac_sha256_ctx()
        nettle_hmac_sha256_set_key(&context, key.count, key)
        nettle_hmac_sha256_update(&context, message.count, message)
        var out = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        nettle_hmac_sha256_digest(&context, out.count, &out)
        return out
    }

    /// The authentication code of a UTF-8 string, the form every step of SigV4's key chain uses.
    static func authenticationCode(for message: String, key: [UInt8]) -> [UInt8] {
        authenticationCode(for: Array(message.utf8), key: key)
    }
}
