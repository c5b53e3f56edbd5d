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

    /// How many different hashes `hashes` holds (its table taken once per run of inserts);
    /// `expectingUnique`: room for all of them at once.
    static func distinctCount(_ hashes: [UInt64], expectingUnique: Bool = false) -> Int {
        var set = HashSet64(capacity: expectingUnique ? hashes.count : min(hashes.count, startingCapacity))
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

/// Whether each key goes with one value (both 64-bit hashes, keys never 0): open addressing,
/// growing from a small table, so that a key of a few thousand values (an hour, a flight
/// number) is checked in a table that fits a cache.
enum ImplicationCheck {
    /// Whether every `keys[i]` goes with one value of `values[i]`; stops at the first that
    /// goes with two.
    static func holds(_ keys: [UInt64], _ values: [UInt64]) -> Bool {
        precondition(keys.count == values.count)
        var size = 2 * HashSet64.startingCapacity
        var tableKeys = [UInt64](repeating: 0, count: size), tableValues = tableKeys
        var count = 0
        return keys.withUnsafeBufferPointer { keys in
            values.withUnsafeBufferPointer { values in
                var next = 0
                while next < keys.count {
                    // Adds pairs until the table is half full, then grows it.
                    let end = min(keys.count, next + max(1, size / 2 - count))
                    let mask = size - 1
                    let added = tableKeys.withUnsafeMutableBufferPointer { tableKeys in
                        tableValues.withUnsafeMutableBufferPointer { tableValues -> Int? in
                            var added = 0
                            for position in next..<end {
                                let key = keys[position]
                                var index = Int(truncatingIfNeeded: key) & mask
                                while tableKeys[index] != 0 && tableKeys[index] != key { index = (index + 1) & mask }
                                if tableKeys[index] == 0 {
                                    (tableKeys[index], tableValues[index]) = (key, values[position])
                                    added += 1
                                } else if tableValues[index] != values[position] {
                                    return nil
                                }
                            }
                            return added
                        }
                    }
                    guard let added else { return false }
                    count += added
                    next = end
                    if next < keys.count, (count + 1) * 2 > size {
                        // Twice the slots, the pairs added again (they agree: no conflict).
                        let (oldKeys, oldValues) = (tableKeys, tableValues)
                        size *= 2
                        tableKeys = [UInt64](repeating: 0, count: size)
                        tableValues = tableKeys
                        for (key, value) in zip(oldKeys, oldValues) where key != 0 {
                            var index = Int(truncatingIfNeeded: key) & (size - 1)
                            while tableKeys[index] != 0 { index = (index + 1) & (size - 1) }
                            (tableKeys[index], tableValues[index]) = (key, value)
                        }
                    }
                }
                return true
            }
        }
    }
}
