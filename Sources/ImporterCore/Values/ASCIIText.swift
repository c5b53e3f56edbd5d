/// Strings of bytes known to be ASCII (checked, or a JSON number's): copied into the string's
/// storage as they are, where `String(decoding:)` would look for bytes to repair first.
package enum ASCIIText {
    @inline(__always)
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            guard let base = bytes.baseAddress else { return 0 }
            buffer.baseAddress!.initialize(from: base, count: bytes.count)
            return bytes.count
        }
    }
}
