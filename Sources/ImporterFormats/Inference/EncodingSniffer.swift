import ImporterCore

/// Guesses the encoding of a file from its first bytes, for `model infer` (docs/infer.md): a
/// UTF-16 byte order mark, else UTF-16's NUL bytes beside ASCII characters, else UTF-8 when the
/// bytes are valid UTF-8, else Windows-1252 (ISO-8859-1 when a byte undefined in Windows-1252
/// appears). Returns nil for UTF-8, the default.
enum EncodingSniffer {
    /// The encoding of a file whose first bytes are `sample` (`complete`: all of it).
    static func encoding(of sample: [UInt8], complete: Bool) -> TextEncoding? {
        if sample.starts(with: [0xFF, 0xFE]) { return .utf16LE }
        if sample.starts(with: [0xFE, 0xFF]) { return .utf16BE }
        if sample.starts(with: [0xEF, 0xBB, 0xBF]) { return nil }
        if let utf16 = withoutMark(sample) { return utf16 }
        if isUTF8(sample, complete: complete) || !sample.contains(where: { $0 >= 0x80 }) { return nil }
        let undefined: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]
        return sample.contains(where: undefined.contains) ? .iso88591 : .windows1252
    }

    /// UTF-16 without a byte order mark: text whose first character is in the first 256 and
    /// where most code units' other byte is 0.
    private static func withoutMark(_ sample: [UInt8]) -> TextEncoding? {
        guard let detected = UTF16Text.detect(sample) else { return nil }
        let high = detected == "UTF-16LE" ? 1 : 0
        let units = sample.count / 2
        let zeros = stride(from: high, to: units * 2, by: 2).reduce(0) { $0 + (sample[$1] == 0 ? 1 : 0) }
        guard zeros * 2 > units else { return nil }
        return detected == "UTF-16LE" ? .utf16LE : .utf16BE
    }

    /// Whether `sample` is UTF-8, but for a character cut at its end when it is not `complete`.
    private static func isUTF8(_ sample: [UInt8], complete: Bool) -> Bool {
        for cut in 0...(complete ? 0 : min(3, sample.count))
        where String(validating: sample.dropLast(cut), as: UTF8.self) != nil {
            return true
        }
        return false
    }

    /// `sample` decoded from `encoding` to UTF-8 (an unmapped byte as 0xFF, as a run reads it).
    static func decoded(_ sample: [UInt8], from encoding: TextEncoding?) -> [UInt8] {
        guard let encoding, encoding != .utf8,
            let text = try? TextInput.open(BytesSource(sample), encoding: encoding, name: "").bytes
        else { return sample }
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while let read = try? block.withUnsafeMutableBytes({ try text.read(into: $0.baseAddress!, count: $0.count) }),
            read > 0
        {
            bytes += block[..<read]
        }
        return bytes
    }
}
