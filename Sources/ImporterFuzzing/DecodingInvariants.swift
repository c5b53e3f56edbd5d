import ImporterCore
import ImporterFormats

/// What decoding owes any bytes (docs/pipeline.md#encodings): the same UTF-8 whatever the size
/// of the blocks it is read in; valid UTF-8 but for 0xFF, one for each byte or code unit that is
/// no character, where Swift's own decoder puts U+FFFD; and CSV read from the decoded text
/// keeps the readers' invariants (`ReaderInvariants`), against that text.
enum DecodingInvariants {
    static func check(_ bytes: [UInt8]) throws {
        for decoding in [DecodingSource.Decoding.utf16LE, .utf16BE, .windows1252, .iso88591] {
            let whole = try decoded(bytes, decoding, blockSize: 1 << 16)
            guard try decoded(bytes, decoding, blockSize: 4) == whole else {
                throw FuzzViolation(description: "\(decoding): blocks of 4 bytes decode otherwise than one block")
            }
            let marked = whole.split(separator: DecodingSource.unmapped, omittingEmptySubsequences: false)
            guard marked.allSatisfy({ String(validating: $0, as: UTF8.self) != nil }) else {
                throw FuzzViolation(description: "\(decoding): the decoded text is not UTF-8 but for 0xFF")
            }
            if let expected = reference(bytes, decoding),
                Array(marked.joined(separator: "\u{FFFD}".utf8)) != Array(expected.utf8)
            {
                throw FuzzViolation(description: "\(decoding): the text differs from Swift's decoding")
            }
        }
        for decoding in [DecodingSource.Decoding.utf16LE, .windows1252] {
            let text = try decoded(bytes, decoding, blockSize: 1 << 16)
            try ReaderInvariants.check(text) {
                CSVReader(
                    source: DecodingSource(BytesSource(bytes), decoding: decoding, blockSize: 5), name: "fuzz.csv",
                    options: CSVOptions())
            }
        }
    }

    /// The text as Swift's decoders read it (U+FFFD for what is no character), where they can.
    private static func reference(_ bytes: [UInt8], _ decoding: DecodingSource.Decoding) -> String? {
        switch decoding {
        case .utf16LE, .utf16BE:
            let units = stride(from: 0, to: bytes.count - 1, by: 2).map { index -> UInt16 in
                let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
                return decoding == .utf16LE ? first | second << 8 : first << 8 | second
            }
            return String(decoding: units, as: UTF16.self) + (bytes.count % 2 == 1 ? "\u{FFFD}" : "")
        case .iso88591:
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case .windows1252:
            return nil  // checked against Foundation's table by DecodingSourceTests
        }
    }

    private static func decoded(_ bytes: [UInt8], _ decoding: DecodingSource.Decoding, blockSize: Int) throws
        -> [UInt8]
    {
        try DecodingSource(BytesSource(bytes), decoding: decoding, blockSize: blockSize).readAll(chunkSize: 7)
    }
}
