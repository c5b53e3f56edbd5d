#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a local input file holds, byte for byte: XXH64 of every block of the file (two threads
/// hash alternate blocks), and XXH64 of those in order with the size. A changed file has the
/// same digest with probability about 2⁻⁶⁴.
///
/// The digest is taken with the file's `FileIdentity` before and after: a file written while it
/// was hashed has none.
struct InputDigest: Equatable, Sendable {
    let hex: String
    /// The file's size, times and inode when it was hashed: a later write changes them.
    let identity: FileIdentity

    static let blockSize = 8 << 20
    private static let seed: UInt64 = 0x696D_706F_7274_6572  // "importer"

    /// The digest of the file at `path`; nil when it cannot be read or changed while hashed.
    init?(of path: String) {
        guard let before = FileIdentity(of: path) else { return nil }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let blocks = Int((before.size + Int64(Self.blockSize) - 1) / Int64(Self.blockSize))
        let hashes = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(blocks, 1))
        defer { hashes.deallocate() }
        let failed = Self.hashBlocks(descriptor, count: blocks, into: hashes)
        guard !failed, FileIdentity(of: path) == before else { return nil }
        var tail = Array(hashes.prefix(blocks))
        tail.append(UInt64(before.size))
        let digest = tail.withUnsafeBytes { XXH64.hash($0, seed: Self.seed) }
        hex = String(digest, radix: 16)
        identity = before
    }

    /// Hashes block `k` into `hashes[k]`, even blocks on a helper thread and odd ones on the
    /// calling thread; returns whether a read failed or came up short.
    private static func hashBlocks(_ descriptor: Int32, count: Int, into hashes: UnsafeMutableBufferPointer<UInt64>)
        -> Bool
    {
        let hashesAddress = UInt(bitPattern: hashes.baseAddress)
        let helper =
            count > 1
            ? StageThread("input digest", owning: ()) { _ in hashEvery(2, from: 0, descriptor, count, hashesAddress) }
            : nil
        let mine = hashEvery(count > 1 ? 2 : 1, from: count > 1 ? 1 : 0, descriptor, count, hashesAddress)
        let theirs = helper?.join() ?? false
        return mine || theirs
    }

    private static func hashEvery(
        _ stride: Int, from first: Int, _ descriptor: Int32, _ count: Int, _ hashesAddress: UInt
    ) -> Bool {
        let hashes = UnsafeMutablePointer<UInt64>(bitPattern: hashesAddress)!
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 64)
        defer { buffer.deallocate() }
        var block = first
        while block < count {
            var filled = 0
            while filled < blockSize {
                let got = pread(descriptor, buffer + filled, blockSize - filled, off_t(block * blockSize + filled))
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { break }
                filled += got
            }
            if filled < blockSize && block != count - 1 { return true }
            hashes[block] = XXH64.hash(UnsafeRawBufferPointer(start: buffer, count: filled), seed: seed)
            block += stride
        }
        return false
    }
}

/// A file's identity as `stat` gives it: a write changes its size, modification time or
/// change time (which no tool sets back); a replaced file has another inode.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int64
    let changed: Int64

    init?(of path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }
}
