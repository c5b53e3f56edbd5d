import Foundation
import XCTest
@testable import ImporterArchive

/// The pieces of a one-pass tar export, checked by outside readers: gzip, zstd and Python's
/// tarfile must read what `TarHeader`, `FrameCodec` and `ParallelFrameWriter` write.
final class StreamingTarTests: XCTestCase {
    var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "importer-archive-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(atPath: directory) }

    func testHeadersAreReadByPythonTarfileIncludingSizesBeyondEightGiB() throws {
        let modified = Date(timeIntervalSince1970: 1_795_000_000)
        for size: Int64 in [0, 1, 8_589_934_591, 8_589_934_592, 123_456_789_012] {
            let header = TarHeader.regularFile(name: "data/Checkin.ndjson", size: size, modified: modified)
            XCTAssertEqual(header.count, 512)
            let file = write("header-\(size)", header)
            let read = try python(
                """
                import sys, tarfile
                info = tarfile.TarInfo.frombuf(open(sys.argv[1], "rb").read(), "utf-8", "strict")
                print(info.name, info.size, oct(info.mode), info.mtime, info.isreg())
                """, file)
            XCTAssertEqual(read, "data/Checkin.ndjson \(size) 0o644 1795000000 True\n")
        }
        XCTAssertFalse(TarHeader.fits(String(repeating: "x", count: 101)))
        XCTAssertFalse(TarHeader.fits("data/Café.ndjson"))
    }

    func testStoredFramesAndCompressedFramesDecompressAsOneStream() throws {
        for (codec, tool) in [(FrameCodec.gzip, "/usr/bin/gzip"), (.zstd, "/usr/bin/zstd")] {
            // Stored frames around block limits (gzip 65,535, zstd 128 KiB), then compressed ones.
            let parts: [[UInt8]] = [0, 1, 65_535, 65_536, 131_072, 200_001].map { count in
                (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + count) }
            }
            let compressor = try codec.makeCompressor()
            var archive: [UInt8] = []
            for part in parts { archive += codec.stored(part) }
            XCTAssertEqual(
                codec.stored(parts[4]).count, codec.stored(parts[4].map { $0 ^ 0xff }).count,
                "a stored frame's length depends on the length only")
            for part in parts { archive += try compressor.frame(of: part) }
            let file = write("frames-\(codec)", archive)
            let expected = Array(parts.joined())
            XCTAssertEqual(try run(tool, ["-dc", file]), Data(expected + expected), "\(codec)")
        }
    }

    func testParallelFramesComeOutInOrderWithTheHashOfTheInput() throws {
        var output: [UInt8] = []
        let lock = NSLock()
        let writer = ParallelFrameWriter(codec: .zstd, workers: 3) { frame in
            lock.lock(); defer { lock.unlock() }
            output += frame
        }
        var input: [UInt8] = []
        for index in 0..<200 {
            let chunk = Array("chunk \(index): \(String(repeating: "abc", count: index * 31))\n".utf8)
            input += chunk
            try writer.write(chunk)
        }
        let written = try writer.finish()
        XCTAssertEqual(written.bytes, Int64(input.count))
        let inputFile = write("input", input)
        XCTAssertEqual(
            written.sha256, String(decoding: try run("/usr/bin/sha256sum", [inputFile]).prefix(64), as: UTF8.self))
        XCTAssertEqual(try run("/usr/bin/zstd", ["-dc", write("output.zst", output)]), Data(input))
    }

    private func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = directory + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    private func python(_ script: String, _ argument: String) throws -> String {
        String(decoding: try run("/usr/bin/env", ["python3", "-c", script, argument]), as: UTF8.self)
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments)")
        return data
    }
}
