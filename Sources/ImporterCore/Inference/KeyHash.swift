/// A 64-bit hash of a field's value for key detection: equal values of any type a column may
/// end up with hash equal. Text is trimmed of spaces and tabs (as coercion trims numbers and
/// dates), then hashed as an integer (without leading zeros), an ISO-8601 instant, a UUID (case
/// folded) or else as its bytes. Hashing collapses at worst values that differ (`+1`, `1`), so a
/// column found unique is unique; one found not unique may, rarely, be unique after all.
///
/// `0` stands for null, `1…4` for a null marker (`NullMarkers`); no value hashes below 5.
///
/// The reading also says which of those forms the text has: `TypeCandidates` uses it in place
/// of parsing again (each form is read exactly as `ValueCoercion` reads it; tests hold them equal).
enum KeyHash {
    static let null: UInt64 = 0
    static let reserved: UInt64 = 5

    /// The form a value's text has.
    enum Form: Equatable {
        /// `[+-]?digits` without a leading zero that fits an Int64 (`Int64(text)` reads it).
        case integer(Int64)
        /// `ISO8601.parse` reads it.
        case iso8601
        /// `UUIDText.canonical` reads it.
        case uuid
        case other
    }

    struct Reading {
        var hash: UInt64
        var form: Form
        /// The text holds a `|` (a separator `rowKey` avoids).
        var pipe = false
    }

    static func of(_ field: FieldValue) -> Reading {
        switch field {
        case .null: return Reading(hash: null, form: .other)
        case .bool(let flag): return Reading(hash: finish(flag ? 0xB001 : 0xB000, tag: 4), form: .other)
        case .text(let text), .number(let text), .composite(let text), .collection(_, let text): return of(text)
        }
    }

    static func of(_ text: String) -> Reading {
        if let result = text.utf8.withContiguousStorageIfAvailable({ of(bytes: $0) }) { return result }
        return Array(text.utf8).withUnsafeBufferPointer { of(bytes: $0) }
    }

    /// The reading of text given as its UTF-8 bytes.
    static func of(bytes all: UnsafeBufferPointer<UInt8>) -> Reading {
        var start = 0, end = all.count
        while start < end, all[start] == 32 || all[start] == 9 { start += 1 }
        while end > start, all[end - 1] == 32 || all[end - 1] == 9 { end -= 1 }
        let bytes = UnsafeBufferPointer(rebasing: all[start..<end])
        if let number = integer(bytes) {
            return Reading(hash: finish(UInt64(bitPattern: number), tag: 1), form: .integer(number))
        }
        if bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), case .success(let millis) = ISO8601.parse(bytes: bytes) {
            return Reading(hash: finish(UInt64(bitPattern: millis), tag: 2), form: .iso8601)
        }
        if bytes.count == 32 || bytes.count == 36, let value = uuid(bytes) { return Reading(hash: value, form: .uuid) }
        return text(bytes)
    }

    /// `[+-]?digits` without a leading zero, as an Int64 (as `Int64(text)` reads it).
    private static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        let index = bytes[0] == 43 || bytes[0] == 45 ? 1 : 0
        guard index < bytes.count, bytes.count - index <= 19 else { return nil }
        if bytes[index] == 48 && bytes.count - index > 1 { return nil }
        return IntegerText.int64(bytes)
    }

    /// 32 hex digits, or 8-4-4-4-12 with hyphens, folded to lower case (as `UUIDText` reads it):
    /// the digits gathered, then checked and hashed eight at a time.
    private static func uuid(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        if bytes.count == 36, bytes[8] != 45 || bytes[13] != 45 || bytes[18] != 45 || bytes[23] != 45 { return nil }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 4) { words -> UInt64? in
            let target = UnsafeMutableRawPointer(words.baseAddress!), source = UnsafeRawPointer(bytes.baseAddress!)
            if bytes.count == 36 {
                target.copyMemory(from: source, byteCount: 8)
                (target + 8).copyMemory(from: source + 9, byteCount: 4)
                (target + 12).copyMemory(from: source + 14, byteCount: 4)
                (target + 16).copyMemory(from: source + 19, byteCount: 4)
                (target + 20).copyMemory(from: source + 24, byteCount: 12)
            } else {
                target.copyMemory(from: source, byteCount: 32)
            }
            var hash: UInt64 = 0x5555_5555_5555_5555
            for index in 0..<4 {
                let word = words[index]
                guard isHex(word) else { return nil }
                hash = mix(hash ^ (word | 0x2020_2020_2020_2020))  // A–F as a–f; digits keep 0x20
            }
            return finish(hash, tag: 3)
        }
    }

    /// Every byte of `word` is 0–9, A–F or a–f.
    @inline(__always)
    private static func isHex(_ word: UInt64) -> Bool {
        let highs: UInt64 = 0x8080_8080_8080_8080
        guard word & highs == 0 else { return false }
        /// High bit of each byte in `low…high` (bytes below 0x80, so no carries between bytes).
        func within(_ low: UInt8, _ high: UInt8) -> UInt64 {
            let ones: UInt64 = 0x0101_0101_0101_0101
            return (word &+ ones &* UInt64(0x80 - low)) & ~(word &+ ones &* UInt64(0x7F - high)) & highs
        }
        return within(0x30, 0x39) | within(0x41, 0x46) | within(0x61, 0x66) == highs
    }

    /// The bytes, eight at a time.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> Reading {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var pipe = false
        var index = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                pipe = pipe || hasPipe(word)
                hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
                index += 8
            }
        }
        var tail: UInt64 = 0
        while index < bytes.count {
            pipe = pipe || bytes[index] == 124
            tail = tail << 8 | UInt64(bytes[index])
            index += 1
        }
        return Reading(hash: finish(mix(hash ^ tail), tag: 0), form: .other, pipe: pipe)
    }

    @inline(__always)
    private static func hasPipe(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let x = word ^ (ones &* 124)
        return (x &- ones) & ~x & 0x8080_8080_8080_8080 != 0
    }

    /// A pair of hashes as one (for two-column keys and rowKey combinations).
    static func combine(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let value = mix(a &* 0x9E37_79B9_7F4A_7C15 ^ b)
        return value < reserved ? value + reserved : value
    }

    /// murmur3's 64-bit finaliser.
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }

    @inline(__always)
    private static func finish(_ value: UInt64, tag: UInt64) -> UInt64 {
        let hash = mix(value ^ (tag &* 0xD6E8_FEB8_6659_FD93))
        return hash < reserved ? hash + reserved : hash
    }
}
