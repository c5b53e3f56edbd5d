import Foundation
import ImporterCore

/// Strings from bytes that must be valid UTF-8 (invalid bytes are a rejection, never repaired).
///
/// ASCII — most fields of most dumps — is recognised eight bytes at a time and becomes a String
/// without the generic validating initializer, whose per-call cost (metadata lookups) was a
/// tenth of the CSV reader's time. Anything else is validated strictly.
enum UTF8Text {
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if isASCII(bytes) { return ASCIIText.string(bytes) }
        // Decoded with repairs, then compared: the same bytes back means they were UTF-8. This is
        // one pass of the standard library's UTF-8 check, where `String(validating:as:)`, generic
        // over its encoding, looks up type metadata on every call.
        let string = String(decoding: bytes, as: UTF8.self)
        let unchanged = string.utf8.withContiguousStorageIfAvailable { decoded in
            decoded.count == bytes.count && memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
        return unchanged == true ? string : nil
    }

    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if base[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}
