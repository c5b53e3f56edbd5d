internal import Crypto

/// SHA-256 for model checksums and input fingerprints: swift-crypto's (BoringSSL's on Linux,
/// CryptoKit's on Apple platforms), with the lowercase hex digest the package records.
public enum SHA256 {
    /// The lowercase hex digest of `bytes`.
    public static func hex(of bytes: [UInt8]) -> String {
        JSONText.hex(Array(Crypto.SHA256.hash(data: bytes)))
    }
}
