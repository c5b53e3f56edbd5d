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
        let mask = self.mask
        let inserted = slots.withUnsafeMutableBufferPointer { slots -> Bool in
            var index = Int(truncatingIfNeeded: hash) & mask
            while true {
                let slot = slots[index]
                if slot == 0 {
                    slots[index] = hash
                    return true
                }
                if slot == hash { return false }
                index = (index + 1) & mask
            }
        }
        if inserted { count += 1 }
        return inserted
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

    /// Room a count starts with: a column of a few values (a carrier, a month) keeps a table
    /// that fits a cache, and a unique one grows to its size.
    static let startingCapacity = 4096

    /// Whether `hashes` are all different; nil-free hashes only (none is `KeyHash.null`).
    static func allDistinct<S: Sequence>(_ hashes: S, count: Int) -> Bool where S.Element == UInt64 {
        var set = HashSet64(capacity: min(count, startingCapacity))
        for hash in hashes where !set.insert(hash) { return false }
        return true
    }

    /// How many different hashes `hashes` holds; `expectingUnique`: room for all of them at once.
    static func distinctCount(_ hashes: [UInt64], expectingUnique: Bool = false) -> Int {
        var set = HashSet64(capacity: expectingUnique ? hashes.count : min(hashes.count, startingCapacity))
        for hash in hashes { set.insert(hash) }
        return set.count
    }
}

/// Whether each key goes with one value (both 64-bit hashes, keys never 0): open addressing,
/// growing from a small table, so that a key of a few thousand values (an hour, a flight
/// number) is checked in a table that fits a cache.
struct ImplicationCheck {
    private var keys = [UInt64](repeating: 0, count: 2 * HashSet64.startingCapacity)
    private var values = [UInt64](repeating: 0, count: 2 * HashSet64.startingCapacity)
    private var count = 0

    /// Whether every `keys[i]` goes with one value of `values[i]`; stops at the first that
    /// goes with two.
    static func holds(_ keys: [UInt64], _ values: [UInt64]) -> Bool {
        precondition(keys.count == values.count)
        var check = ImplicationCheck()
        for (key, value) in zip(keys, values) where !check.add(key, value) { return false }
        return true
    }

    /// Adds `key` with `value`; false if `key` was there with another value.
    private mutating func add(_ key: UInt64, _ value: UInt64) -> Bool {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var index = Int(truncatingIfNeeded: key) & mask
        while keys[index] != 0 && keys[index] != key { index = (index + 1) & mask }
        guard keys[index] == 0 else { return values[index] == value }
        (keys[index], values[index]) = (key, value)
        count += 1
        return true
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        keys = [UInt64](repeating: 0, count: oldKeys.count * 2)
        values = keys
        count = 0
        for (key, value) in zip(oldKeys, oldValues) where key != 0 { _ = add(key, value) }
    }
}
