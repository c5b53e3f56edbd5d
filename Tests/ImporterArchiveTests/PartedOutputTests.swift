import Foundation
import XCTest
@testable import ImporterArchive

/// The parts of an uploaded archive put back together are the bytes a file gets from the same
/// writes, with every part but the last of its full size, and no part sent before its
/// placeholders are filled.
final class PartedOutputTests: XCTestCase {
    /// Keeps the parts it is given, in the order given.
    private final class CollectedParts: ArchivePartUploader {
        var parts: [(number: Int, bytes: [UInt8])] = []
        var completed = false
        var aborted = false
        var bytes: Int64 { Int64(parts.reduce(0) { $0 + $1.bytes.count }) }
        var abortFailure: String? { nil }
        func upload(_ bytes: [UInt8], number: Int) throws { parts.append((number, bytes)) }
        func complete() throws { completed = true }
        func abort() { aborted = true }
    }

    func testPartsPutTogetherAreTheFileAndWaitForTheirPlaceholders() throws {
        let partSize = PartedOutput.minimumPartSize
        let directory = NSTemporaryDirectory() + "parted-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = try FileOutput(path: directory + "/archive.tar")
        let collected = CollectedParts()
        let parted = PartedOutput(uploader: collected, firstPartSize: partSize)
        let data = (0..<(partSize + 100)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let placeholder = [UInt8](repeating: 0, count: 1000), filled = [UInt8](repeating: 0xAB, count: 1000)
        var slots: [(file: Int64, parted: Int64)] = []
        for output in [file, parted] as [any ArchiveOutput] {
            let first = try output.reserve(placeholder)
            try output.append(data)
            // A placeholder across the boundary of parts 2 and 3.
            try output.append([UInt8](repeating: 1, count: 2 * partSize - 500 - data.count - 1000))
            let straddling = try output.reserve(placeholder)
            try output.append(data)
            slots.append((first, straddling))
        }
        XCTAssertEqual(collected.parts.count, 0, "part 1 waits for its placeholder, parts 2 and 3 for theirs")
        for (output, offset) in [(file, slots[0].1), (parted, slots[1].1)] as [(any ArchiveOutput, Int64)] {
            try output.fill(filled, at: offset)
        }
        XCTAssertEqual(collected.parts.map(\.number), [2, 3], "filled, the full parts go up at once, before part 1")
        for (output, offset) in [(file, slots[0].0), (parted, slots[1].0)] as [(any ArchiveOutput, Int64)] {
            try output.fill(filled, at: offset)
            try output.finish()
        }
        XCTAssertTrue(collected.completed)
        XCTAssertEqual(collected.parts.map(\.number), [2, 3, 1, 4])
        let sizes = collected.parts.sorted { $0.number < $1.number }.map(\.bytes.count)
        XCTAssertEqual(sizes.dropLast(), [partSize, partSize, partSize])
        let whole = collected.parts.sorted { $0.number < $1.number }.flatMap(\.bytes)
        XCTAssertEqual(whole, Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/archive.tar"))))
        XCTAssertEqual(parted.size, Int64(whole.count))
    }
}
