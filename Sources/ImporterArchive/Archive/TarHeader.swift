import Foundation

/// A POSIX ustar header of a regular file, built here rather than by libarchive so that a
/// one-pass export can write it after the data it describes (see `StreamingTarWriter`).
enum TarHeader {
    static let blockSize = 512

    /// Whether `name` fits ustar's 100-byte name field as printable ASCII.
    static func fits(_ name: String) -> Bool {
        name.utf8.count <= 100 && name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7f }
    }

    /// The 512-byte header of a file of `size` bytes, mode 0644. `name` must `fit`.
    static func regularFile(name: String, size: Int64, modified: Date) -> [UInt8] {
        precondition(fits(name), "tar name does not fit ustar: \(name)")
        var header = [UInt8](repeating: 0, count: blockSize)
        func put(_ text: String, at offset: Int) {
            for (index, byte) in text.utf8.enumerated() { header[offset + index] = byte }
        }
        func putOctal(_ value: Int64, at offset: Int, width: Int) {
            put(octal(value, digits: width - 1), at: offset)  // then a NUL
        }
        put(name, at: 0)
        putOctal(0o644, at: 100, width: 8)
        putOctal(0, at: 108, width: 8)
        putOctal(0, at: 116, width: 8)
        if size < Self.largestOctalSize {
            putOctal(size, at: 124, width: 12)
        } else {
            // Base-256 (GNU, read by GNU tar, bsdtar and Python): a marker bit, then big-endian.
            header[124] = 0x80
            for index in 0..<8 { header[135 - index] = UInt8(truncatingIfNeeded: size >> (8 * index)) }
        }
        putOctal(Int64(modified.timeIntervalSince1970), at: 136, width: 12)
        put("0", at: 156)
        put("ustar\u{0}00", at: 257)
        put("        ", at: 148)
        let checksum = header.reduce(0) { $0 + Int64($1) }
        put(octal(checksum, digits: 6) + "\u{0} ", at: 148)
        return header
    }

    /// `value` in octal, zero-padded to `digits`.
    private static func octal(_ value: Int64, digits: Int) -> String {
        let text = String(value, radix: 8)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// Sizes from 8 GiB on do not fit 11 octal digits.
    private static let largestOctalSize: Int64 = 1 << 33
}
