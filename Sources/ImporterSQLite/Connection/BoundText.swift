/// Text a statement reads in place while it runs: bound without a copy of SQLite's own
/// (`SQLITE_STATIC`), so that binding a value does not allocate and free a buffer each time.
/// For a statement bound and run over and over, as staging rows is.
///
/// Its bytes stay where they are until `removeAll`, which its owner calls only once the
/// statements bound to them have run and are about to be bound anew: SQLite reads a parameter's
/// bytes until then.
final class BoundText {
    /// Blocks of `blockSize` bytes, filled one after another; kept for the next rows.
    private var blocks: [UnsafeMutableRawPointer] = []
    /// The block being filled, and its free room (`next..<end`). Read for every value bound:
    /// not checked for exclusive access, which no one else has (the class is not shared).
    @exclusivity(unchecked) private var block = -1
    @exclusivity(unchecked) private var next: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var end: UnsafeMutableRawPointer?
    static let blockSize = 1 << 16

    deinit { for block in blocks { block.deallocate() } }

    /// Room for `count` bytes that stays put until `removeAll`; nil for more than a block.
    @inline(__always)
    func reserve(_ count: Int) -> UnsafeMutableRawPointer? {
        if let next, let end, end - next >= count {
            self.next = next + count
            return next
        }
        return reserveInNextBlock(count)
    }

    private func reserveInNextBlock(_ count: Int) -> UnsafeMutableRawPointer? {
        guard count <= Self.blockSize else { return nil }
        block += 1
        if block == blocks.count { blocks.append(.allocate(byteCount: Self.blockSize, alignment: 1)) }
        next = blocks[block] + count
        end = blocks[block] + Self.blockSize
        return blocks[block]
    }

    /// Gives back the last `count` bytes of the last `reserve`, which were not written.
    func giveBack(_ count: Int) { next! -= count }

    /// `bytes` copied here; nil for more than a block.
    @inline(__always)
    func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer? {
        guard let room = reserve(bytes.count) else { return nil }
        if let base = bytes.baseAddress { room.copyMemory(from: base, byteCount: bytes.count) }
        return UnsafeRawPointer(room)
    }

    /// The UTF-8 of `string` copied here, and its count; nil for more than a block, or a text
    /// that is not contiguous. Read in place: the string is neither copied nor retained first.
    @inline(__always)
    func copy(_ string: String) -> (bytes: UnsafeRawPointer, count: Int)? {
        string.utf8.withContiguousStorageIfAvailable { bytes in
            copy(UnsafeRawBufferPointer(bytes)).map { ($0, bytes.count) }
        } ?? nil
    }

    /// Forgets what was copied: the room is used again, for the next statement bound.
    func removeAll() {
        block = -1
        (next, end) = (nil, nil)
    }
}
