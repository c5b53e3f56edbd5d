import Foundation
import ImporterCore

/// Writes a tar archive (plain, `.tar.gz` or `.tar.zst`) in one pass over the data, for
/// exports that learn a file's size and SHA-256 only by writing it.
///
/// A tar header comes before its data, so each header is first written as a placeholder in a
/// frame that stores it uncompressed (its length fixed by its content's length) and rewritten
/// in place once the entry is complete. The data between headers is compressed on several
/// threads into independent frames. Like `ArchiveWriter`, it writes `<path>.partial` and
/// renames it into place in `finish()`.
final class StreamingTarWriter {
    /// A placeholder to be rewritten: where it is and the length of its content.
    struct Slot {
        fileprivate let offset: Int64
        fileprivate let fileLength: Int
    }

    private let path: String
    private let partialPath: String
    private let codec: FrameCodec
    private let workers: Int
    private var descriptor: Int32
    private var offset: Int64 = 0
    private var entry: (name: String, headerOffset: Int64, frames: ParallelFrameWriter)?

    /// Nil for an archive kind that cannot be written this way (`.tar.xz`, `.zip`).
    init?(path: String, kind: ArchiveKind) throws {
        guard let codec = FrameCodec(kind) else { return nil }
        self.path = path
        partialPath = path + ".partial"
        self.codec = codec
        workers = codec == .identity ? 1 : max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        let directory = FilePaths.directory(of: path)
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        descriptor = open(partialPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ArchiveError(path: path, "cannot create the archive: \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        guard descriptor >= 0 else { return }
        close(descriptor)
        unlink(partialPath)
    }

    /// Whether every name fits the ustar headers this writer makes.
    static func canName(_ names: [String]) -> Bool { names.allSatisfy(TarHeader.fits) }

    /// Reserves room for a file of exactly `length` bytes whose content comes later (`fill`).
    func reserveFile(length: Int) throws -> Slot {
        let slot = Slot(offset: offset, fileLength: length)
        try append(codec.stored(Self.tarFile(name: "", bytes: [UInt8](repeating: 0, count: length), modified: Date())))
        return slot
    }

    /// Writes the file of a reserved slot; `bytes` must have the length reserved.
    func fill(_ slot: Slot, name: String, bytes: [UInt8], modified: Date) throws {
        precondition(bytes.count == slot.fileLength, "\(name) does not fit its reserved room")
        try rewrite(codec.stored(Self.tarFile(name: name, bytes: bytes, modified: modified)), at: slot.offset)
    }

    /// Writes a whole file whose content is known.
    func addFile(name: String, bytes: [UInt8], modified: Date) throws {
        try append(codec.stored(Self.tarFile(name: name, bytes: bytes, modified: modified)))
    }

    /// Starts a file whose size is known once `endEntry` is called.
    func beginEntry(name: String) throws {
        precondition(entry == nil, "an entry is already open")
        let headerOffset = offset
        try append(codec.stored([UInt8](repeating: 0, count: TarHeader.blockSize)))
        let frames = ParallelFrameWriter(codec: codec, workers: workers) { [unowned self] frame in
            try append(frame)
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
        if remainder > 0 { try append(codec.stored([UInt8](repeating: 0, count: TarHeader.blockSize - remainder))) }
        let header = TarHeader.regularFile(name: name, size: written.bytes, modified: modified)
        try rewrite(codec.stored(header), at: headerOffset)
        return written
    }

    /// Writes the end-of-archive blocks, closes the file and moves it to its final name.
    func finish() throws {
        try append(codec.stored([UInt8](repeating: 0, count: 2 * TarHeader.blockSize)))
        let closed = close(descriptor) == 0
        descriptor = -1
        guard closed else {
            let reason = String(cString: strerror(errno))
            unlink(partialPath)
            throw ArchiveError(path: path, "cannot finish the archive: \(reason)")
        }
        try ArchiveWriter.moveIntoPlace(partialPath, path)
    }

    /// Gives up after a failure: waits for the compressing threads, removes the partial file.
    func abandon() {
        if let entry { _ = try? entry.frames.finish() }
        entry = nil
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(partialPath)
    }

    /// A header and its data, padded to whole blocks.
    private static func tarFile(name: String, bytes: [UInt8], modified: Date) -> [UInt8] {
        TarHeader.regularFile(name: name, size: Int64(bytes.count), modified: modified) + bytes
            + [UInt8](repeating: 0, count: paddedLength(bytes.count) - bytes.count)
    }

    private static func paddedLength(_ length: Int) -> Int {
        (length + TarHeader.blockSize - 1) / TarHeader.blockSize * TarHeader.blockSize
    }

    private func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw writeFailure() }
                done += count
            }
        }
        offset += Int64(bytes.count)
    }

    private func rewrite(_ bytes: [UInt8], at position: Int64) throws {
        let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(position)) }
        guard count == bytes.count else { throw writeFailure() }
    }

    private func writeFailure() -> ArchiveError {
        ArchiveError(path: path, "cannot write: \(String(cString: strerror(errno)))")
    }

    private func mapFailure<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let failure as CompressionFailure {
            throw ArchiveError(path: path, failure.message)
        }
    }
}
