import CPrefetch

/// The hash keys accepted so far in a run, per entity: finds duplicates within the run and
/// answers reference checks against this run's parent inputs. Owned by the key stage.
///
/// Keys are kept as 64-bit XXH64 fingerprints (seeded per process):
/// the first half million in memory, the rest spilled to a temporary file in sorted runs behind
/// Bloom filters (`SpilledFingerprints`), so memory stays nearly flat however many keys a run
/// holds and most new keys are confirmed new without touching the disk.
///
/// Two different keys share a fingerprint with probability about n²/2⁶⁵ (10⁻⁶ for five million
/// keys); such a pair would be reported as a duplicate, never dropped silently.
package final class KeyLedger {
    /// Fingerprint → input index (high 24 bits) and line (low 40 bits).
    private let recent: FingerprintTable
    private let memoryLimit: Int
    // Unchecked exclusivity, here and below: the key stage's thread alone uses the ledger, and
    // no call reenters it; a checked access costs more than a lookup in `recent`.
    @exclusivity(unchecked) private var spilled: SpilledFingerprints?
    /// Fingerprints reference checks found on disk, kept at hand: they ask for the same parents
    /// over and over. It starts small enough for the CPU's caches and grows, when full, up to
    /// `foundLimit` (8 MB: the parents of big tables, such as 100k locations named by 10M
    /// check-ins); full at that size, it is cleared. (Keys still in `recent` need no copy: the
    /// key stage prefetches their slots.)
    @exclusivity(unchecked) private var found = FingerprintTable(capacity: 1 << 14)
    private static let foundLimit = 1 << 18
    /// The slots of the keys recorded pending (`recordPending`), in order.
    @exclusivity(unchecked) private var pending: [Int] = []
    private var entityIDs: [String: Int] = [:]
    private let image = Fingerprint()

    package static let defaultMemoryLimit = 1 << 19

    /// `memoryLimit`: fingerprints held in memory (16 bytes each, plus the table's slack)
    /// before they move to disk.
    package init(memoryLimit: Int = defaultMemoryLimit) {
        self.memoryLimit = memoryLimit
        recent = FingerprintTable(capacity: memoryLimit)
    }

    package func record(_ key: Value, entity: String, at location: RecordLocation) throws -> RecordLocation? {
        try record(fingerprint: fingerprint(of: key, entity: entity), at: location)
    }

    /// `record` of a key by its `fingerprint(of:entity:)`.
    package func record(fingerprint: UInt64, at location: RecordLocation) throws -> RecordLocation? {
        // Not `found`: it only holds what the others hold, and new keys are the common case.
        if let packed = try recent.value(of: fingerprint) ?? spilled?.find(fingerprint) { return Self.location(packed) }
        recent.insert(fingerprint, value: Self.packed(location))
        if recent.count >= memoryLimit { try spill() }
        return nil
    }

    /// Records a key that `firstOccurrence(fingerprint:)` found new, without looking for it again.
    package func recordNew(fingerprint: UInt64, at location: RecordLocation) throws {
        recent.insert(fingerprint, value: Self.packed(location))
        if recent.count >= memoryLimit { try spill() }
    }

    /// Readies the ledger for `count` keys recorded pending, a document's: kept together by
    /// `commitPending`, or taken back together by `rollBackPending`. False when they could not
    /// all be held in memory (the caller then keeps them apart until they are committed).
    package func beginPending(count: Int) throws -> Bool {
        precondition(pending.isEmpty, "the keys recorded pending were neither committed nor taken back")
        guard count < memoryLimit else { return false }
        // Moved to disk before, never between: keys on disk cannot be taken back.
        if recent.count + count >= memoryLimit { try spill() }
        return true
    }

    /// `record(fingerprint:at:)`, until `commitPending` keeps it or `rollBackPending` takes it back.
    package func recordPending(fingerprint: UInt64, at location: RecordLocation) throws -> RecordLocation? {
        if let packed = try recent.value(of: fingerprint) ?? spilled?.find(fingerprint) { return Self.location(packed) }
        pending.append(recent.insert(fingerprint, value: Self.packed(location)))
        return nil
    }

    /// Keeps the keys recorded pending.
    package func commitPending() {
        pending.removeAll(keepingCapacity: true)
    }

    /// Takes back the keys recorded pending: the ledger is as it was before them (none was
    /// recorded after them, so no key is left that probed past their slots).
    package func rollBackPending() {
        for slot in pending { recent.remove(at: slot) }
        pending.removeAll(keepingCapacity: true)
    }

    /// Where the key with `fingerprint` was recorded first; nil when it was not (nothing is recorded).
    package func firstOccurrence(fingerprint: UInt64) throws -> RecordLocation? {
        try (recent.value(of: fingerprint) ?? spilled?.find(fingerprint)).map(Self.location)
    }

    package func contains(_ key: Value, entity: String) throws -> Bool {
        try contains(fingerprint: fingerprint(of: key, entity: entity))
    }

    /// `contains` of a key by its `fingerprint(of:entity:)`.
    package func contains(fingerprint: UInt64) throws -> Bool {
        if recent.value(of: fingerprint) != nil || found.value(of: fingerprint) != nil { return true }
        guard let packed = try spilled?.find(fingerprint) else { return false }
        if found.count >= found.capacity {
            if found.capacity < Self.foundLimit {
                found = FingerprintTable(capacity: found.capacity * 4)
            } else {
                found.removeAll()
            }
        }
        found.insert(fingerprint, value: packed)
        return true
    }

    /// A location as `recent` holds it.
    private static func packed(_ location: RecordLocation) -> UInt64 {
        UInt64(location.inputIndex) << 40 | UInt64(location.line)
    }

    private static func location(_ packed: UInt64) -> RecordLocation {
        RecordLocation(inputIndex: Int(packed >> 40), line: Int(packed & (1 << 40 - 1)))
    }

    /// Moves the in-memory fingerprints to disk as one sorted run.
    private func spill() throws {
        if spilled == nil { spilled = try SpilledFingerprints() }
        var entries = recent.entries()
        entries.sort { $0.fingerprint < $1.fingerprint }
        try spilled!.append(sorted: entries)
        recent.removeAll()
    }

    /// Starts loading what `contains(fingerprint:)` and `record(fingerprint:at:)` will probe
    /// first, so that a lookup a few records later finds it in the cache: a probe of these
    /// tables is otherwise a cache miss.
    package func prefetch(_ fingerprint: UInt64) {
        recent.prefetch(fingerprint)
        if let spilled {  // none until keys move to disk
            found.prefetch(fingerprint)
            spilled.prefetch(fingerprint)
        }
    }

    /// The key's fingerprint in the run (never 0, the tables' empty mark).
    package func fingerprint(of key: Value, entity: String) -> UInt64 {
        fingerprint(of: key, entityID: entityID(entity))
    }

    /// `fingerprint(of:entity:)` by the entity's `entityID`, without looking its name up.
    package func fingerprint(of key: Value, entityID: Int) -> UInt64 {
        image.reset()
        image.append(UInt64(entityID))
        append(key)
        return image.value
    }

    /// The number that stands for `entity` in this ledger's fingerprints.
    package func entityID(_ entity: String) -> Int {
        if let known = entityIDs[entity] { return known }
        entityIDs[entity] = entityIDs.count
        return entityIDs.count - 1
    }

    private func append(_ key: Value) {
        switch key {
        case .string(var text):
            text.withUTF8 { image.append(UInt8(1), counted: UnsafeRawBufferPointer($0)) }
        case .integer(let number):
            image.append(UInt8(2), UInt64(bitPattern: number))
        case .date(let millis):
            image.append(UInt8(5), UInt64(bitPattern: millis))
        case .pair(let hash, let range):
            image.append(UInt8(4))
            append(hash)
            append(range)
        default:
            var hasher = Hasher()  // keys of other types are rare: hashed by value
            hasher.combine(key)
            image.append(UInt8(3), UInt64(bitPattern: Int64(hasher.finalize())))
        }
    }
}

/// A blocked Bloom filter over values that are already uniform hashes: a value's probes all fall
/// in one 512-bit block (one cache line), chosen by its highest bits, so values added in
/// ascending order fill the blocks in order; the probes within it come from its low bits
/// (double hashing), with no hashing of its own. A value that is not in the filter then costs
/// one cache miss, however many probes it takes.
package struct BloomFilter {
    private var bits: [UInt64]
    /// Blocks are 8 words; their count is a power of two, so a value's block is its top bits.
    private let blockShift: UInt64
    private static let probes: UInt64 = 7

    /// At least 10 bits a key: about 1 % false positives at `capacity` keys.
    init(capacity: Int) {
        var bitCount: UInt64 = 512
        while bitCount < UInt64(capacity) * 10 { bitCount <<= 1 }
        bits = [UInt64](repeating: 0, count: Int(bitCount / 64))
        blockShift = UInt64(64 - (bitCount / 512).trailingZeroBitCount)
    }

    mutating func insert(_ hash: UInt64) {
        let block = Int(truncatingIfNeeded: hash >> blockShift) << 3
        let low = hash & 0xFFFF_FFFF, high = (hash >> 23) | 1
        for probe in 0..<Self.probes {
            let bit = (low &+ probe &* high) & 511
            bits[block + Int(bit >> 6)] |= 1 << (bit & 63)
        }
    }

    /// Starts loading the block `mayContain(hash)` reads.
    func prefetch(_ hash: UInt64) {
        bits.withUnsafeBufferPointer {
            importer_prefetch($0.baseAddress! + (Int(truncatingIfNeeded: hash >> blockShift) << 3))
        }
    }

    func mayContain(_ hash: UInt64) -> Bool {
        let block = Int(truncatingIfNeeded: hash >> blockShift) << 3
        let low = hash & 0xFFFF_FFFF, high = (hash >> 23) | 1
        for probe in 0..<Self.probes {
            let bit = (low &+ probe &* high) & 511
            if bits[block + Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
        }
        return true
    }
}
