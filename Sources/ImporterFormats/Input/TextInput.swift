import ImporterCore

/// Puts a decoder in front of an input's bytes when its text is not UTF-8
/// (docs/pipeline.md#encodings): by the source's `encoding:`, or, without one, by a UTF-16
/// byte order mark. UTF-8 text is handed to the readers as it is, never through a decoder.
enum TextInput {
    /// The UTF-8 bytes of `source`, whose text is in `encoding` (nil: UTF-8 unless a UTF-16
    /// byte order mark says otherwise), and the encoding they were decoded from (nil: none,
    /// the text is UTF-8); `name` stands for it in messages. Throws an `InputError` when
    /// `encoding` is `utf-16` and the text has no byte order mark.
    static func open(_ source: ByteSource, encoding: TextEncoding?, name: String) throws -> (
        bytes: ByteSource, decoded: TextEncoding?
    ) {
        let bytes = try decoder(source, encoding: encoding, name: name)
        return (bytes, (bytes as? DecodingSource)?.encoding)
    }

    private static func decoder(_ source: ByteSource, encoding: TextEncoding?, name: String) throws -> ByteSource {
        // A file's first bytes are read where they are, so that UTF-8 text is read as before.
        let inPlace = try (source as? FileSource)?.firstBytes(2)
        let head = try inPlace ?? firstBytes(of: source, count: 2)
        /// The input from its first byte.
        func whole() -> ByteSource { inPlace != nil ? source : PrefixedSource(head, source) }
        /// The input after its byte order mark.
        func afterMark() throws -> ByteSource {
            if inPlace != nil { _ = try firstBytes(of: source, count: 2) }
            return source
        }
        let mark: DecodingSource.Decoding? =
            head == [0xFF, 0xFE] ? .utf16LE : head == [0xFE, 0xFF] ? .utf16BE : nil
        switch encoding {
        case nil:
            // A UTF-8 byte order mark, or none: the readers skip it.
            guard let mark else { return whole() }
            return DecodingSource(try afterMark(), decoding: mark)
        case .utf8:
            return whole()
        case .utf16:
            guard let mark else {
                throw InputError(
                    path: name,
                    message:
                        "does not start with a UTF-16 byte order mark (FF FE or FE FF), which 'encoding: utf-16' needs to tell the byte order; set 'encoding: utf-16le' or 'utf-16be'"
                )
            }
            return DecodingSource(try afterMark(), decoding: mark)
        case .utf16LE, .utf16BE:
            // A byte order mark, when there is one, is skipped, and its order wins.
            if let mark { return DecodingSource(try afterMark(), decoding: mark) }
            return DecodingSource(whole(), decoding: encoding == .utf16LE ? .utf16LE : .utf16BE)
        case .windows1252:
            return DecodingSource(whole(), decoding: .windows1252)
        case .iso88591:
            return DecodingSource(whole(), decoding: .iso88591)
        }
    }

    /// Up to `count` bytes from the start of `source` (fewer only at its end).
    private static func firstBytes(of source: ByteSource, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        while total < count {
            let read = try bytes.withUnsafeMutableBytes {
                try source.read(into: $0.baseAddress! + total, count: count - total)
            }
            if read == 0 { break }
            total += read
        }
        return Array(bytes[..<total])
    }
}

/// An input whose first bytes were read already (to look for a byte order mark): they come
/// first, then the rest of it.
final class PrefixedSource: ByteSource {
    private let source: ByteSource
    private var prefix: [UInt8]

    init(_ prefix: [UInt8], _ source: ByteSource) {
        self.prefix = prefix
        self.source = source
    }

    var bytesConsumed: Int64 { source.bytesConsumed }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        guard !prefix.isEmpty else { return try source.read(into: buffer, count: count) }
        let length = min(count, prefix.count)
        prefix.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: length) }
        prefix.removeFirst(length)
        return length
    }

    func close() { source.close() }
}
