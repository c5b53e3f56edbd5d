/// Collects the bytes of a few values and fingerprints them with XXH64 (a fast 64-bit hash
/// of good quality: different inputs share a fingerprint with probability about 2⁻⁶⁴), seeded
/// per process. The buffer is kept between fingerprints, so building one does not allocate.
package final class Fingerprint {
    // Inlinable where bytes are appended: the store fingerprints every column of every record
    // and stored row of a re-run, a call per value (docs/writes.md#re-runs-and-refreshes).
    // Unchecked exclusivity: a fingerprint is one thread's, and no call reenters; inlined into
    // another module, checked accesses cost more than the appends themselves.
    @exclusivity(unchecked) @usableFromInline var buffer: UnsafeMutableRawPointer
    @exclusivity(unchecked) @usableFromInline var capacity = 256
    @exclusivity(unchecked) @usableFromInline var count = 0
    private static let seed = UInt64.random(in: .min ... .max)

    package init() { buffer = .allocate(byteCount: capacity, alignment: 8) }

    deinit { buffer.deallocate() }

    package func reset() { count = 0 }

    @inlinable package func append(_ byte: UInt8) {
        reserve(1)
        buffer.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inlinable package func append(_ number: UInt64) {
        reserve(8)
        buffer.storeBytes(of: number.littleEndian, toByteOffset: count, as: UInt64.self)
        count += 8
    }

    /// A tag byte, then a number, in one call.
    @inlinable package func append(_ tag: UInt8, _ number: UInt64) {
        reserve(9)
        buffer.storeBytes(of: tag, toByteOffset: count, as: UInt8.self)
        buffer.storeBytes(of: number.littleEndian, toByteOffset: count + 1, as: UInt64.self)
        count += 9
    }

    /// A tag byte, then the bytes preceded by their count, so that consecutive texts cannot run
    /// together.
    @inlinable package func append(_ tag: UInt8, counted bytes: UnsafeRawBufferPointer) {
        reserve(9 + bytes.count)
        buffer.storeBytes(of: tag, toByteOffset: count, as: UInt8.self)
        buffer.storeBytes(of: UInt64(bytes.count).littleEndian, toByteOffset: count + 1, as: UInt64.self)
        if let source = bytes.baseAddress { (buffer + count + 9).copyMemory(from: source, byteCount: bytes.count) }
        count += 9 + bytes.count
    }

    /// The fingerprint of the bytes appended since `reset`; never 0 (callers use 0 as "none").
    package var value: UInt64 {
        let hash = XXH64.hash(UnsafeRawBufferPointer(start: buffer, count: count), seed: Self.seed)
        return hash == 0 ? 1 : hash
    }

    @inlinable @inline(__always) func reserve(_ more: Int) {
        if count + more > capacity { grow(to: count + more) }
    }

    @usableFromInline func grow(to needed: Int) {
        while needed > capacity { capacity *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        grown.copyMemory(from: buffer, byteCount: count)
        buffer.deallocate()
        buffer = grown
    }
}

/// XXH64 (Yann Collet's xxHash, 64-bit variant).
package enum XXH64 {
    private static let prime1: UInt64 = 11_400_714_785_074_694_791
    private static let prime2: UInt64 = 14_029_467_366_897_019_727
    private static let prime3: UInt64 = 1_609_587_929_392_839_161
    private static let prime4: UInt64 = 9_650_029_242_287_828_579
    private static let prime5: UInt64 = 2_870_177_450_012_600_261

    package static func hash(_ input: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        let count = input.count
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            var v1 = seed &+ prime1 &+ prime2, v2 = seed &+ prime2, v3 = seed, v4 = seed &- prime1
            while offset + 32 <= count {
                v1 = round(v1, word(input, offset))
                v2 = round(v2, word(input, offset + 8))
                v3 = round(v3, word(input, offset + 16))
                v4 = round(v4, word(input, offset + 24))
                offset += 32
            }
            hash = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
            hash = merge(hash, v1)
            hash = merge(hash, v2)
            hash = merge(hash, v3)
            hash = merge(hash, v4)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(count)
        while offset + 8 <= count {
            hash ^= round(0, word(input, offset))
            hash = rotate(hash, 27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            hash ^= UInt64(UInt32(littleEndian: input.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) &* prime1
            hash = rotate(hash, 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            hash ^= UInt64(input[offset]) &* prime5
            hash = rotate(hash, 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }

    @inline(__always) private static func word(_ input: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: input.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always) private static func round(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
        rotate(accumulator &+ lane &* prime2, 31) &* prime1
    }

    @inline(__always) private static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    @inline(__always) private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        value << bits | value >> (64 - bits)
    }
}
