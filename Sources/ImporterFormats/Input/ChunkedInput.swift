import Foundation

/// The window of an input that readers parse: a byte array that refills in large chunks.
///
/// Each refill makes a new array holding the unconsumed tail plus fresh bytes, so record
/// slices handed out earlier (raw text) stay valid without copying.
struct ChunkedInput {
    private let source: ByteSource?
    private let chunkSize: Int
    /// The current window. Bytes before `position` are consumed.
    private(set) var bytes: [UInt8] = []
    var position = 0
    /// Offset in the input of `bytes[0]`.
    private(set) var baseOffset: Int64 = 0
    private(set) var atEOF = false

    init(source: ByteSource, chunkSize: Int = 1 << 20) {
        self.source = source
        self.chunkSize = chunkSize
    }

    /// Bytes that are all there is: a part of an input, starting at `offset` in it.
    init(bytes: [UInt8], offset: Int64) {
        source = nil
        chunkSize = 0
        self.bytes = bytes
        baseOffset = offset
        atEOF = true
    }

    var bytesConsumed: Int64 { source?.bytesConsumed ?? Int64(bytes.count) }

    /// The input offset of `index` in the window.
    func offset(of index: Int) -> Int64 { baseOffset + Int64(index) }

    /// Keeps bytes from `position` on and appends at least one chunk. Returns false at EOF.
    mutating func refill() throws -> Bool {
        guard !atEOF, let source else { return false }
        let keep = bytes.count - position
        let capacity = max(chunkSize, keep)
        var total = 0
        var reachedEOF = false
        let fresh = try [UInt8](unsafeUninitializedCapacity: keep + capacity) { buffer, count in
            let base = buffer.baseAddress!
            if keep > 0 {
                bytes.withUnsafeBufferPointer { old in
                    base.update(from: old.baseAddress! + position, count: keep)
                }
            }
            while total < capacity {
                let read = try source.read(into: base + keep + total, count: capacity - total)
                if read == 0 {
                    reachedEOF = true
                    break
                }
                total += read
                if total >= chunkSize / 2 { break }
            }
            count = keep + total
        }
        atEOF = reachedEOF
        baseOffset += Int64(position)
        position = 0
        bytes = fresh
        return total > 0
    }

    /// The index of the first line feed in the window at or after `start`, or nil.
    func lineFeed(from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard start < buffer.count, let found = memchr(buffer.baseAddress! + start, 10, buffer.count - start) else {
                return nil
            }
            return buffer.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }
}
