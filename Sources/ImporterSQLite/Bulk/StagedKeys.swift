import ImporterCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The text keys of one entity's staged rows, kept in memory as they are staged, so that its
/// key index is written from them in key order (`KeyIndexWriter`) instead of being built by
/// SQLite's sort, which reads the staged table back and sorts it on disk
/// (docs/writes.md#bulk-loads).
///
/// The keys are those of rows 1…`count` of the staged table, in that order: row `n` has rowid
/// `n`. Up to `maximumBytes`; past that, `append` refuses and the caller falls back to the sort.
/// One thread's: the write stage's while it stages, then the build's.
final class StagedKeys {
    /// A key and its row. Its first `headBytes` bytes are held in the entry itself, so that
    /// sorting and writing read the entries in order rather than text all over memory.
    struct Entry {
        /// The key's first bytes as they are, zeros past its end.
        var head: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        /// Where a longer key is, whole, in `long`.
        var offset: UInt32 = 0
        var length: UInt32 = 0
        var rowid: UInt32 = 0
    }

    static let headBytes = 32

    /// The memory the keys of one entity may take: about 350,000 keys of up to `headBytes`.
    /// Past it the keys are let go of, and held until then for nothing: small, so that a large
    /// table does not raise the run's peak memory by much.
    static let maximumBytes = 16 << 20

    /// Entries in blocks of `blockSize`, filled in order: kept as they grow, never copied.
    /// Read and written for every row staged: not checked for exclusive access, which no one
    /// else has.
    @exclusivity(unchecked) private var blocks: [UnsafeMutablePointer<Entry>] = []
    /// Entries a block: 2^`blockShift`. 12 MiB a block by default: malloc maps blocks that
    /// large apart, so that one let go of goes back to the system (and only the pages written
    /// to are ever taken). (Smaller in tests, to cross blocks.)
    private let blockShift: Int
    private var blockSize: Int { 1 << blockShift }
    /// The keys longer than `headBytes`, one after another.
    @exclusivity(unchecked) private(set) var long: [UInt8] = []
    /// How many keys are kept: those of rows 1…count.
    @exclusivity(unchecked) private(set) var count = 0
    /// `count` and the count of `long` at the last commit.
    private var committed = (count: 0, long: 0)

    init(blockShift: Int = 18) { self.blockShift = blockShift }

    deinit { for block in blocks { block.deallocate() } }

    /// Keeps the key of the next staged row, its UTF-8; false when that would pass
    /// `maximumBytes`.
    func append(_ key: UnsafeRawBufferPointer) -> Bool {
        let longBytes = key.count > Self.headBytes ? key.count : 0
        guard (count + 1) * MemoryLayout<Entry>.stride + long.count + longBytes <= Self.maximumBytes else {
            return false
        }
        if count == blocks.count << blockShift { blocks.append(.allocate(capacity: blockSize)) }
        var entry = Entry(offset: UInt32(long.count), length: UInt32(key.count), rowid: UInt32(count + 1))
        withUnsafeMutableBytes(of: &entry.head) {
            $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: key.prefix(Self.headBytes)))
        }
        (blocks[count >> blockShift] + count & (blockSize - 1)).initialize(to: entry)
        count += 1
        if longBytes > 0 { long.append(contentsOf: key) }
        return true
    }

    /// The entry of row `index + 1`.
    func entry(_ index: Int) -> Entry { blocks[index >> blockShift][index & (blockSize - 1)] }

    /// Calls `body` with the entries in row order, letting go of each block once it is read.
    func drain(_ body: (Entry) -> Void) {
        let blocks = self.blocks, count = self.count
        (self.blocks, self.count) = ([], 0)
        for (number, block) in blocks.enumerated() {
            for index in 0..<max(0, min(blockSize, count - number << blockShift)) { body(block[index]) }
            block.deallocate()
        }
    }

    /// The keys kept now are those the store committed.
    func commit() { committed = (count, long.count) }

    /// Forgets the keys of rows staged since the last commit, which the store rolled back.
    func rollBack() {
        count = committed.count
        long.removeSubrange(committed.long...)
    }

    /// The bytes of the key of the entry at `entry`: in the entry, or whole among `long`.
    static func key(at entry: UnsafePointer<Entry>, _ long: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let length = Int(entry.pointee.length), offset = Int(entry.pointee.offset)
        guard length <= headBytes else { return UnsafeBufferPointer(rebasing: long[offset..<offset + length]) }
        let head = UnsafeRawPointer(entry) + MemoryLayout<Entry>.offset(of: \.head)!
        return UnsafeBufferPointer(start: head.assumingMemoryBound(to: UInt8.self), count: length)
    }

    /// Negative, zero or positive as `left`'s key sorts before, with or after `right`'s.
    @inline(__always)
    static func order(_ left: Entry, _ right: Entry, _ long: UnsafeBufferPointer<UInt8>) -> Int32 {
        // Each word's bytes read as a big-endian number order as their bytes do.
        if left.head.0 != right.head.0 { return left.head.0.bigEndian < right.head.0.bigEndian ? -1 : 1 }
        if left.head.1 != right.head.1 { return left.head.1.bigEndian < right.head.1.bigEndian ? -1 : 1 }
        if left.head.2 != right.head.2 { return left.head.2.bigEndian < right.head.2.bigEndian ? -1 : 1 }
        if left.head.3 != right.head.3 { return left.head.3.bigEndian < right.head.3.bigEndian ? -1 : 1 }
        // Equal heads: a key that ends within them begins the other (its zeros are the other's).
        if left.length > headBytes, right.length > headBytes, let base = long.baseAddress {
            let compared = memcmp(
                base + Int(left.offset) + headBytes, base + Int(right.offset) + headBytes,
                Int(min(left.length, right.length)) - headBytes)
            if compared != 0 { return compared }
        }
        return left.length == right.length ? 0 : (left.length < right.length ? -1 : 1)
    }
}
