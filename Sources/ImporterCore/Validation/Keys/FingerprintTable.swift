import CPrefetch

/// A map from fingerprints (uniform 64-bit hashes) to 64-bit values: open addressing with
/// 16-byte slots, so a lookup is one cache miss.
package final class FingerprintTable {
    package struct Entry {
        /// Never 0: 0 marks an empty slot.
        package var fingerprint: UInt64
        package var value: UInt64
    }

    private let slots: SlotArray<Entry>
    private let mask: Int
    /// The entries the table was sized for.
    package let capacity: Int
    /// Unchecked exclusivity: a table is used by one thread (its owner's), and no call reenters.
    @exclusivity(unchecked) package private(set) var count = 0

    /// Room for `capacity` entries, the slots at most `maximumLoad` full.
    package init(capacity: Int, maximumLoad: Double = 0.5) {
        var size = 16
        while Double(size) * maximumLoad < Double(capacity) { size <<= 1 }
        slots = SlotArray(count: size)
        mask = size - 1
        self.capacity = capacity
    }

    /// Starts loading the slot a lookup of `fingerprint` probes first.
    package func prefetch(_ fingerprint: UInt64) {
        importer_prefetch(slots.pointer + (Int(truncatingIfNeeded: fingerprint) & mask))
    }

    package func value(of fingerprint: UInt64) -> UInt64? {
        var index = Int(truncatingIfNeeded: fingerprint) & mask
        while true {
            let slot = slots[index]
            if slot.fingerprint == fingerprint { return slot.value }
            if slot.fingerprint == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    /// Adds an entry for a fingerprint; the caller keeps `count` within `capacity`. Returns its
    /// slot, for `remove(at:)`.
    @discardableResult
    package func insert(_ fingerprint: UInt64, value: UInt64) -> Int {
        var index = Int(truncatingIfNeeded: fingerprint) & mask
        while slots[index].fingerprint != 0 { index = (index + 1) & mask }
        slots[index] = Entry(fingerprint: fingerprint, value: value)
        count += 1
        return index
    }

    /// Empties the slot `insert` returned. Exact only when every entry inserted after it is
    /// removed too: the table is then as it was before them (an entry left that probed past
    /// the slot would no longer be found).
    package func remove(at slot: Int) {
        slots[slot] = Entry(fingerprint: 0, value: 0)
        count -= 1
    }

    /// Sets the value of every entry of `fingerprint`; adds none.
    package func update(_ fingerprint: UInt64, value: UInt64) {
        var index = Int(truncatingIfNeeded: fingerprint) & mask
        while slots[index].fingerprint != 0 {
            if slots[index].fingerprint == fingerprint { slots[index].value = value }
            index = (index + 1) & mask
        }
    }

    /// Every entry, in no particular order.
    package func entries() -> [Entry] {
        UnsafeBufferPointer(start: slots.pointer, count: slots.count).filter { $0.fingerprint != 0 }
    }

    package func removeAll() {
        slots.pointer.update(repeating: Entry(fingerprint: 0, value: 0), count: slots.count)
        count = 0
    }
}
