import ImporterCore

/// Text in UTF-16, Windows-1252 or ISO-8859-1 as UTF-8 bytes, decoded as it is read, so that
/// every reader parses UTF-8 unchanged (docs/pipeline.md#encodings).
///
/// A character cut between two reads of the underlying source (a UTF-16 code unit, a surrogate
/// pair) is carried over to the next one. A byte or code unit the encoding does not map — one
/// of Windows-1252's five undefined bytes, a lone UTF-16 surrogate, an odd byte at the end of
/// UTF-16 text — becomes the byte 0xFF, which is never valid UTF-8: the reader rejects the
/// record holding it (reason `encoding`), and only that record.
package final class DecodingSource: ByteSource {
    /// What the text is decoded from (UTF-8 text is never decoded).
    package enum Decoding: Sendable {
        case utf16LE, utf16BE, windows1252, iso88591
    }

    /// The encoding of the text decoded.
    var encoding: TextEncoding {
        switch decoding {
        case .utf16LE: return .utf16LE
        case .utf16BE: return .utf16BE
        case .windows1252: return .windows1252
        case .iso88591: return .iso88591
        }
    }

    /// The byte that stands for what cannot be decoded: never part of UTF-8.
    package static let unmapped: UInt8 = 0xFF

    private let source: ByteSource
    private let decoding: Decoding
    /// Raw bytes: `carry` bytes left from the last block, then the block read.
    private let raw: UnsafeMutablePointer<UInt8>
    private var carry = 0
    /// Decoded bytes not yet handed out: `output[outputStart..<outputEnd]`.
    private let output: UnsafeMutablePointer<UInt8>
    private var outputStart = 0
    private var outputEnd = 0
    private var finished = false
    /// UTF-8 bytes of each single-byte code (packed, first byte lowest) and their counts.
    private let table: [UInt32]
    private let lengths: [UInt8]

    /// Raw bytes read at once; the decoded text of a block is at most three times as long.
    private let blockSize: Int

    /// Decodes `source` (after its byte order mark), `blockSize` raw bytes at a time.
    package init(_ source: ByteSource, decoding: Decoding, blockSize: Int = 1 << 16) {
        self.source = source
        self.decoding = decoding
        self.blockSize = max(blockSize, 4)
        raw = .allocate(capacity: self.blockSize + 4)
        output = .allocate(capacity: 3 * (self.blockSize + 4) + 8)
        (table, lengths) = Self.table(for: decoding)
    }

    deinit {
        raw.deallocate()
        output.deallocate()
    }

    package var bytesConsumed: Int64 { source.bytesConsumed }

    package func close() { source.close() }

    package func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        while outputStart == outputEnd {
            if finished { return 0 }
            try decodeBlock()
        }
        let length = min(count, outputEnd - outputStart)
        buffer.copyMemory(from: output + outputStart, byteCount: length)
        outputStart += length
        return length
    }

    /// Reads the next block and decodes it (with what was carried over) into `output`.
    private func decodeBlock() throws {
        let read = try source.read(into: raw + carry, count: blockSize)
        let available = carry + read
        let consumed: Int
        switch decoding {
        case .utf16LE: (consumed, outputEnd) = decodeUTF16(count: available, bigEndian: false)
        case .utf16BE: (consumed, outputEnd) = decodeUTF16(count: available, bigEndian: true)
        case .windows1252, .iso88591: (consumed, outputEnd) = decodeSingleBytes(count: available)
        }
        outputStart = 0
        carry = available - consumed
        if read == 0 {
            // Without more bytes what was carried is no character: a high surrogate, an odd
            // byte, or both; one 0xFF for each (UTF-16 carries at most 3 bytes).
            finished = true
            for _ in 0..<(carry + 1) / 2 {
                output[outputEnd] = Self.unmapped
                outputEnd += 1
            }
            carry = 0
        } else if carry > 0 {
            raw.update(from: raw + consumed, count: carry)
        }
    }

    /// Decodes `raw[0..<count]` as UTF-16 up to its last whole character; returns the raw
    /// bytes consumed and the decoded bytes written.
    private func decodeUTF16(count: Int, bigEndian: Bool) -> (Int, Int) {
        let raw = self.raw, out = self.output
        var i = 0, o = 0
        // Four code units below U+0080 at a time: ASCII text, most of most dumps.
        let asciiMask: UInt64 = bigEndian ? 0x80FF_80FF_80FF_80FF : 0xFF80_FF80_FF80_FF80
        let shift: UInt64 = bigEndian ? 8 : 0
        @inline(__always) func unit(_ at: Int) -> UInt32 {
            bigEndian ? UInt32(raw[at]) << 8 | UInt32(raw[at + 1]) : UInt32(raw[at]) | UInt32(raw[at + 1]) << 8
        }
        while i + 1 < count {
            if i + 8 <= count {
                let word = UnsafeRawPointer(raw + i).loadUnaligned(as: UInt64.self).littleEndian
                if word & asciiMask == 0 {
                    let w = word >> shift
                    out[o] = UInt8(truncatingIfNeeded: w)
                    out[o + 1] = UInt8(truncatingIfNeeded: w >> 16)
                    out[o + 2] = UInt8(truncatingIfNeeded: w >> 32)
                    out[o + 3] = UInt8(truncatingIfNeeded: w >> 48)
                    i += 8
                    o += 4
                    continue
                }
            }
            let u = unit(i)
            if u < 0x80 {
                out[o] = UInt8(u)
                o += 1
                i += 2
            } else if u < 0x800 {
                out[o] = UInt8(0xC0 | u >> 6)
                out[o + 1] = UInt8(0x80 | u & 0x3F)
                o += 2
                i += 2
            } else if u & 0xFC00 == 0xD800 {
                guard i + 3 < count else { break }  // its pair is in the next block
                let low = unit(i + 2)
                guard low & 0xFC00 == 0xDC00 else {
                    out[o] = Self.unmapped
                    o += 1
                    i += 2
                    continue
                }
                let scalar = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
                out[o] = UInt8(0xF0 | scalar >> 18)
                out[o + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
                out[o + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
                out[o + 3] = UInt8(0x80 | scalar & 0x3F)
                o += 4
                i += 4
            } else if u & 0xFC00 == 0xDC00 {
                out[o] = Self.unmapped
                o += 1
                i += 2
            } else {
                out[o] = UInt8(0xE0 | u >> 12)
                out[o + 1] = UInt8(0x80 | u >> 6 & 0x3F)
                out[o + 2] = UInt8(0x80 | u & 0x3F)
                o += 3
                i += 2
            }
        }
        return (i, o)
    }

    /// Decodes all of `raw[0..<count]` with `table`; returns the bytes consumed and written.
    private func decodeSingleBytes(count: Int) -> (Int, Int) {
        let raw = self.raw, out = self.output
        var i = 0, o = 0
        table.withUnsafeBufferPointer { table in
            lengths.withUnsafeBufferPointer { lengths in
                while i < count {
                    if i + 8 <= count {
                        let word = UnsafeRawPointer(raw + i).loadUnaligned(as: UInt64.self)
                        if word & 0x8080_8080_8080_8080 == 0 {
                            UnsafeMutableRawPointer(out + o).storeBytes(of: word, as: UInt64.self)
                            i += 8
                            o += 8
                            continue
                        }
                    }
                    let byte = Int(raw[i])
                    // `output` has room for 4 bytes past any character.
                    UnsafeMutableRawPointer(out + o).storeBytes(of: table[byte].littleEndian, as: UInt32.self)
                    o += Int(lengths[byte])
                    i += 1
                }
            }
        }
        return (i, o)
    }

    /// Windows-1252's characters for 0x80–0x9F (nil: the byte is undefined); every other byte
    /// is the code point of its value, as in ISO-8859-1.
    private static let windows1252High: [UInt32?] = [
        0x20AC, nil, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, nil,
        0x017D, nil, nil, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, nil, 0x017E, 0x0178,
    ]

    /// The UTF-8 bytes of every byte of a single-byte encoding (empty for UTF-16).
    private static func table(for decoding: Decoding) -> ([UInt32], [UInt8]) {
        guard decoding == .windows1252 || decoding == .iso88591 else { return ([], []) }
        var table = [UInt32](repeating: 0, count: 256), lengths = [UInt8](repeating: 0, count: 256)
        for byte in 0..<256 {
            let scalar: UInt32? =
                decoding == .windows1252 && (0x80..<0xA0).contains(byte)
                ? windows1252High[byte - 0x80] : UInt32(byte)
            guard let scalar else {
                (table[byte], lengths[byte]) = (UInt32(unmapped), 1)
                continue
            }
            var packed: UInt32 = 0, length: UInt8 = 0
            for unit in String(Character(Unicode.Scalar(scalar)!)).utf8 {
                packed |= UInt32(unit) << (8 * UInt32(length))
                length += 1
            }
            (table[byte], lengths[byte]) = (packed, length)
        }
        return (table, lengths)
    }
}
