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

    /// How many different hashes `hashes` holds (its table taken once per run of inserts).
    static func distinctCount(_ hashes: [UInt64]) -> Int {
        var set = HashSet64(capacity: min(hashes.count, startingCapacity))
        hashes.withUnsafeBufferPointer { hashes in
            var next = 0
            while next < hashes.count {
                // Inserts until the table is half full, then grows it.
                let room = max(1, set.slots.count / 2 - set.count)
                let end = min(hashes.count, next + room)
                let mask = set.mask
                let added = set.slots.withUnsafeMutableBufferPointer { slots -> Int in
                    var added = 0
                    for hash in hashes[next..<end] {
                        var index = Int(truncatingIfNeeded: hash) & mask
                        while slots[index] != 0 && slots[index] != hash { index = (index + 1) & mask }
                        if slots[index] == 0 {
                            slots[index] = hash
                            added += 1
                        }
                    }
                    return added
                }
                set.count += added
                next = end
                if next < hashes.count, (set.count + 1) * 2 > set.slots.count { set.grow() }
            }
        }
        return set.count
    }
}

/// Whether each of a sequence of keys goes with one value (both 64-bit hashes, keys never 0):
/// open addressing, growing from a small table, so that a key of a few thousand values (an hour,
/// a flight number) is checked in a table that fits a cache.
struct ImplicationCheck {
    private var keys: [UInt64]
    private var values: [UInt64]
    private var count = 0

    init() {
        keys = [UInt64](repeating: 0, count: 2 * HashSet64.startingCapacity)
        values = keys
    }

    /// Adds `key` with `value`; false if `key` was there with another value.
    mutating func add(_ key: UInt64, _ value: UInt64) -> Bool {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var index = Int(truncatingIfNeeded: key) & mask
        let (found, agrees) = keys.withUnsafeMutableBufferPointer { keys in
            values.withUnsafeMutableBufferPointer { values -> (Bool, Bool) in
                while keys[index] != 0 && keys[index] != key { index = (index + 1) & mask }
                if keys[index] == 0 {
                    keys[index] = key
                    values[index] = value
                    return (false, true)
                }
                return (true, values[index] == value)
            }
        }
        if !found { count += 1 }
        return agrees
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        keys = [UInt64](repeating: 0, count: oldKeys.count * 2)
        values = keys
        count = 0
        for (key, value) in zip(oldKeys, oldValues) where key != 0 { _ = add(key, value) }
    }
}
