internal import Crypto

/// HMAC-SHA256 (RFC 2104), swift-crypto's: SigV4's key chain and signature.
enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        Array(HMAC<Crypto.SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    /// The authentication code of a UTF-8 string, the form every step of SigV4's key chain uses.
    static func authenticationCode(for message: String, key: [UInt8]) -> [UInt8] {
        authenticationCode(for: Array(message.utf8), key: key)
    }
}
