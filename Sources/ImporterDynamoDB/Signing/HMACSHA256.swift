import ImporterCore

/// HMAC-SHA256 (RFC 2104 with a 64-byte block), built on ImporterCore's `SHA256`; no dependency needed.
enum HMACSHA256 {
    /// SHA-256's block size in bytes: keys longer than this are hashed first, shorter ones zero-padded.
    static let blockSize = 64

    /// The 32-byte authentication code of `message` under `key`.
    static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var block = key
        if block.count > blockSize {
            var hash = SHA256()
            hash.update(block)
            block = hash.finalize()
        }
        block += [UInt8](repeating: 0, count: blockSize - block.count)

        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        let innerDigest = inner.finalize()

        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(innerDigest)
        return outer.finalize()
    }

    /// The authentication code of a UTF-8 string, the form every step of SigV4's key chain uses.
    static func authenticationCode(for message: String, key: [UInt8]) -> [UInt8] {
        authenticationCode(for: Array(message.utf8), key: key)
    }
}
