import Foundation
import ImporterCore

/// Writes a tar archive (plain, `.tar.gz` or `.tar.zst`) in one pass over the data, for
/// exports that learn a file's size and SHA-256 only by writing it.
///
/// A tar header comes before its data, so each header is first written as a placeholder in a
/// frame that stores it uncompressed (its length fixed by its content's length) and rewritten
/// once the entry is complete (`ArchiveOutput`: in place in a file, or in a part not yet
/// uploaded). The data between headers is compressed on several threads into independent
/// frames.
final class StreamingTarWriter {
    /// A placeholder to be rewritten: where it is and the length of its content.
    struct Slot {
        fileprivate let offset: Int64
        fileprivate let fileLength: Int
    }

    private let name: String
    private let output: any ArchiveOutput
    private let codec: FrameCodec
    private let workers: Int
    private var entry: (name: String, headerOffset: Int64, frames: ParallelFrameWriter)?

    /// Nil for an archive kind that cannot be written this way (`.tar.xz`, `.zip`). `name`
    /// stands for the archive in messages.
    init?(name: String, output: any ArchiveOutput, kind: ArchiveKind) {
        guard let codec = FrameCodec(kind) else { return nil }
        self.name = name
        self.output = output
        self.codec = codec
        workers = codec == .identity ? 1 : max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Whether every name fits the ustar headers this writer makes.
    static func canName(_ names: [String]) -> Bool { names.allSatisfy(TarHeader.fits) }

    /// Reserves room for a file of exactly `length` bytes whose content comes later (`fill`).
    func reserveFile(length: Int) throws -> Slot {
        let placeholder = codec.stored(
            Self.tarFile(name: "", bytes: [UInt8](repeating: 0, count: length), modified: Date()))
        return Slot(offset: try output.reserve(placeholder), fileLength: length)
    }

    /// Writes the file of a reserved slot; `bytes` must have the length reserved.
    func fill(_ slot: Slot, name: String, bytes: [UInt8], modified: Date) throws {
        precondition(bytes.count == slot.fileLength, "\(name) does not fit its reserved room")
        try output.fill(codec.stored(Self.tarFile(name: name, bytes: bytes, modified: modified)), at: slot.offset)
    }

    /// Writes a whole file whose content is known.
    func addFile(name: String, bytes: [UInt8], modified: Date) throws {
        try output.append(codec.stored(Self.tarFile(name: name, bytes: bytes, modified: modified)))
    }

    /// Starts a file whose size is known once `endEntry` is called.
    func beginEntry(name: String) throws {
        precondition(entry == nil, "an entry is already open")
        let headerOffset = try output.reserve(codec.stored([UInt8](repeating: 0, count: TarHeader.blockSize)))
        let frames = ParallelFrameWriter(codec: codec, workers: workers) { [output] frame in
            try output.append(frame)
        }
        entry = (name, headerOffset, frames)
    }

    /// Appends data to the open entry (compressed on the worker threads).
    func write(_ chunk: [UInt8]) throws {
        try mapFailure { try entry!.frames.write(chunk) }
    }

    /// Ends the open entry: pads it, writes its header in place; its size and SHA-256.
    func endEntry(modified: Date) throws -> (bytes: Int64, sha256: String) {
        let (name, headerOffset, frames) = entry!
        entry = nil
        let written = try mapFailure { try frames.finish() }
        let remainder = Int(written.bytes % Int64(TarHeader.blockSize))
        if remainder > 0 {
            try output.append(codec.stored([UInt8](repeating: 0, count: TarHeader.blockSize - remainder)))
        }
        let header = TarHeader.regularFile(name: name, size: written.bytes, modified: modified)
        try output.fill(codec.stored(header), at: headerOffset)
        return written
    }

    /// Writes the end-of-archive blocks and makes the archive appear under its name.
    func finish() throws {
        try output.append(codec.stored([UInt8](repeating: 0, count: 2 * TarHeader.blockSize)))
        try output.finish()
    }

    /// Gives up after a failure: waits for the compressing threads, leaves nothing behind.
    func abandon() {
        if let entry { _ = try? entry.frames.finish() }
        entry = nil
        output.abandon()
    }

    /// A header and its data, padded to whole blocks.
    private static func tarFile(name: String, bytes: [UInt8], modified: Date) -> [UInt8] {
        TarHeader.regularFile(name: name, size: Int64(bytes.count), modified: modified) + bytes
            + [UInt8](repeating: 0, count: paddedLength(bytes.count) - bytes.count)
    }

    private static func paddedLength(_ length: Int) -> Int {
        (length + TarHeader.blockSize - 1) / TarHeader.blockSize * TarHeader.blockSize
    }

    private func mapFailure<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let failure as CompressionFailure {
            throw ArchiveError(path: name, failure.message)
        }
    }
}
