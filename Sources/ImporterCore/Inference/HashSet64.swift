/// A set of 64-bit hashes (never 0) with open addressing: key detection inserts a column's
/// hashes, stopping at the first one already there.
struct HashSet64 {
    private var slots: [UInt64]
    private var mask: Int
    private(set) var count = 0

    /// Room for `capacity` hashes without growing.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
    }

    /// Adds `hash`; false if it was already there.
    @discardableResult
    mutating func insert(_ hash: UInt64) -> Bool {
        if (count + 1) * 2 > slots.count { grow() }
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[index]
            if slot == 0 {
                slots[index] = hash
                count += 1
                return true
            }
            if slot == hash { return false }
            index = (index + 1) & mask
        }
    }

    func contains(_ hash: UInt64) -> Bool {
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[index]
            if slot == 0 { return false }
            if slot == hash { return true }
            index = (index + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        mask = slots.count - 1
        count = 0
        for hash in old where hash != 0 { insert(hash) }
    }

    /// Whether `hashes` are all different; nil-free hashes only (none is `KeyHash.null`).
    static func allDistinct<S: Sequence>(_ hashes: S, count: Int) -> Bool where S.Element == UInt64 {
        var set = HashSet64(capacity: count)
        for hash in hashes where !set.insert(hash) { return false }
        return true
    }

    /// How many different hashes `hashes` holds.
    static func distinctCount<S: Sequence>(_ hashes: S, count: Int) -> Int where S.Element == UInt64 {
        var set = HashSet64(capacity: count)
        for hash in hashes { set.insert(hash) }
        return set.count
    }
}
