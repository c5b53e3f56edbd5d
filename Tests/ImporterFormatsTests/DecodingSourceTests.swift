import Foundation
import ImporterCore
import XCTest

@testable import ImporterFormats

/// `DecodingSource` (docs/pipeline.md#encodings): text decoded to UTF-8 whatever the size of the
/// blocks it is read in (characters cut between blocks), and a byte or code unit that is no
/// character as 0xFF.
final class DecodingSourceTests: XCTestCase {
    private let text = "id,name\n1,Café € ’quoted’ «ü» ©\n2,ASCII only, long enough for eight-byte steps\n"

    /// All of `bytes` decoded from `decoding`, read `blockSize` raw bytes at a time.
    private func decoded(_ bytes: [UInt8], _ decoding: DecodingSource.Decoding, blockSize: Int) throws -> [UInt8] {
        try DecodingSource(BytesSource(bytes), decoding: decoding, blockSize: blockSize).readAll(chunkSize: 7)
    }

    func testEveryEncodingDecodesToUTF8WhateverTheBlockSize() throws {
        let emoji = text + "3,😀 and 👍🏽 cut anywhere\n"
        let cases: [(DecodingSource.Decoding, String, String.Encoding)] = [
            (.utf16LE, emoji, .utf16LittleEndian), (.utf16BE, emoji, .utf16BigEndian),
            (.windows1252, text, .windowsCP1252),
            (
                .iso88591, text.replacingOccurrences(of: "€ ’", with: "").replacingOccurrences(of: "’", with: ""),
                .isoLatin1
            ),
        ]
        for (decoding, text, encoding) in cases {
            let bytes = Array(text.data(using: encoding)!)
            for blockSize in [4, 5, 6, 7, 9, 16, 1 << 16] {
                XCTAssertEqual(
                    String(decoding: try decoded(bytes, decoding, blockSize: blockSize), as: UTF8.self), text,
                    "\(decoding), blocks of \(blockSize)")
            }
        }
    }

    func testWindows1252MapsAsFoundationDoesAndUndefinedBytesAreFF() throws {
        let undefined: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]
        for byte in UInt8(0)...255 {
            let out = try decoded([byte], .windows1252, blockSize: 4)
            if undefined.contains(byte) {
                XCTAssertEqual(out, [0xFF], "\(byte)")
            } else {
                XCTAssertEqual(out, Array(String(data: Data([byte]), encoding: .windowsCP1252)!.utf8), "\(byte)")
                XCTAssertEqual(
                    try decoded([byte], .iso88591, blockSize: 4), Array(String(Character(Unicode.Scalar(byte))).utf8))
            }
        }
    }

    func testUTF16ThatIsNoCharacterIsFF() throws {
        let cases: [([UInt16], [UInt8])] = [
            ([0x41, 0xD83D, 0x42], [0x41, 0xFF, 0x42]),  // a high surrogate without its pair
            ([0x41, 0xDE00, 0x42], [0x41, 0xFF, 0x42]),  // a low surrogate alone
            ([0x41, 0xD83D], [0x41, 0xFF]),  // a high surrogate at the end
        ]
        for (units, expected) in cases {
            let le = units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            for blockSize in [4, 5, 6] {
                XCTAssertEqual(try decoded(le, .utf16LE, blockSize: blockSize), expected, "\(units)")
            }
        }
        XCTAssertEqual(
            try decoded([0x41, 0x00, 0x42], .utf16LE, blockSize: 4), [0x41, 0xFF], "an odd byte at the end")
    }

    func testAByteOrderMarkSelectsUTF16AndUTF8IsNotDecoded() throws {
        let le = try TextInput.open(BytesSource([0xFF, 0xFE, 0x41, 0x00]), encoding: nil, name: "x")
        XCTAssertEqual(le.decoded, .utf16LE)
        let be = try TextInput.open(BytesSource([0xFE, 0xFF, 0x00, 0x41]), encoding: .utf16, name: "x")
        XCTAssertEqual(be.decoded, .utf16BE)
        let utf8 = try TextInput.open(BytesSource([0xEF, 0xBB, 0xBF, 0x41]), encoding: nil, name: "x")
        XCTAssertNil(utf8.decoded)
        XCTAssertThrowsError(try TextInput.open(BytesSource([0x41, 0x00]), encoding: .utf16, name: "x.csv")) {
            XCTAssertTrue("\($0)".hasPrefix("x.csv: does not start with a UTF-16 byte order mark"), "\($0)")
        }
    }

    /// The decoder stands after decompression, for a local file and for bytes from elsewhere
    /// (an S3 object) alike, and restates a JSON reader's rejection of an unmapped byte.
    func testDecodingFollowsGzipAndRestatesRejections() throws {
        let files = TempDirectory()
        let text = "id,name\n1,Zoë 😀\n"
        let plain = files.write("utf16.csv", [0xFF, 0xFE] + Array(text.data(using: .utf16LittleEndian)!))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-k", plain]
        try gzip.run()
        gzip.waitUntilExit()
        let source = SourceConfig(entity: "A", pattern: "", paths: [], format: nil)
        let local = try readAll(ReaderFactory.makeReader(source: source, path: plain + ".gz"))
        let remote = try readAll(
            ReaderFactory.makeReader(
                source: source, bytes: BytesSource(Array(try Data(contentsOf: URL(fileURLWithPath: plain + ".gz")))),
                name: "s3://bucket/utf16.csv.gz"))
        for records in [local, remote] { XCTAssertEqual(records.map { $0.fields["name"] }, ["Zoë 😀"]) }

        var ndjson = source
        ndjson.encoding = .windows1252
        // 0x81 is undefined in Windows-1252: inside a string, then where JSON wants a value; 0x80 is €.
        let lines: [[UInt8]] = [
            Array(#"{"id":"1","name":"caf"#.utf8) + [0xE9, 0x81] + Array(#""}"#.utf8),
            Array(#"{"id":"2","name":"#.utf8) + [0x81] + Array("}".utf8),
            Array(#"{"id":"3","name":""#.utf8) + [0x80] + Array(#""}"#.utf8),
        ]
        let path = files.write("cp1252.ndjson", Array(lines.joined(separator: [10])))
        let records = try readAll(ReaderFactory.makeReader(source: ndjson, path: path))
        XCTAssertEqual(records.map { $0.failure?.reason }, [.encoding, .encoding, nil])
        XCTAssertTrue(records[0].failure?.message.contains("not windows-1252 text") == true, "\(records[0])")
        XCTAssertTrue(records[1].failure?.message.contains("not windows-1252 text") == true, "\(records[1])")
        XCTAssertEqual(records[2].fields["name"], "€")
    }
}
