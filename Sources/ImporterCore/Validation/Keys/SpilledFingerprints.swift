import Foundation

/// Fingerprints that no longer fit in memory: sorted runs appended to a temporary file that is
/// unlinked at once (the system frees it when the ledger closes it, even after a crash).
///
/// Each run keeps a Bloom filter in memory (10 bits a key, about 1 % false positives) and the
/// first fingerprint of each 4 KiB block, so a lookup reads at most one block of each run its
/// filter cannot rule out. One more filter covers every run: most new keys are confirmed new by
/// it alone, one cache miss however many runs there are, without touching the disk. It is
/// made anew, twice as large, when the runs outgrow it.
package final class SpilledFingerprints {
    typealias Entry = FingerprintTable.Entry

    private let descriptor: Int32
    private let directory: String
    private var end = 0
    private var runs: [Run] = []
    private var block: [Entry]
    /// Every run's fingerprints; sized for `allCapacity`.
    private var all = BloomFilter(capacity: 0)
    private var allCapacity = 0
    private var spilledCount = 0

    private struct Run {
        let offset: Int
        let count: Int
        /// The first fingerprint of each block.
        let fences: [UInt64]
        let filter: BloomFilter
    }

    private static let blockEntries = 4096 / MemoryLayout<Entry>.stride

    /// `firstCapacity`: keys the filter of every run is first made for (2M: 4 MiB).
    init(firstCapacity: Int = 1 << 21) throws {
        self.firstCapacity = firstCapacity
        directory = FileManager.default.temporaryDirectory.path
        var template = Array("\(directory)/importer-keys-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Self.failure("create a file in", directory) }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        self.descriptor = descriptor
        block = [Entry](repeating: Entry(fingerprint: 0, value: 0), count: Self.blockEntries)
    }

    deinit { close(descriptor) }

    /// Writes a run of entries sorted by fingerprint (unsigned), each fingerprint once.
    func append(sorted entries: [Entry]) throws {
        spilledCount += entries.count
        if spilledCount > allCapacity { try coverEarlierRuns(capacity: max(spilledCount * 2, firstCapacity)) }
        var filter = BloomFilter(capacity: entries.count)
        var fences: [UInt64] = []
        fences.reserveCapacity(entries.count / Self.blockEntries + 1)
        for (index, entry) in entries.enumerated() {
            filter.insert(entry.fingerprint)
            all.insert(entry.fingerprint)
            if index % Self.blockEntries == 0 { fences.append(entry.fingerprint) }
        }
        try entries.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let result = pwrite(
                    descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(end + written))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { throw Self.failure("write keys to a temporary file in", directory) }
                written += result
            }
        }
        runs.append(Run(offset: end, count: entries.count, fences: fences, filter: filter))
        end += entries.count * MemoryLayout<Entry>.stride
    }

    /// Keys the filter of every run is first made for.
    private let firstCapacity: Int

    /// Makes the filter of every run anew for `capacity` keys, from the runs written so far
    /// read back in order (the run being appended adds its own entries).
    private func coverEarlierRuns(capacity: Int) throws {
        all = BloomFilter(capacity: capacity)
        allCapacity = capacity
        let stride = MemoryLayout<Entry>.stride
        var buffer = [Entry](repeating: Entry(fingerprint: 0, value: 0), count: 1 << 16)
        for run in runs {
            var first = 0
            while first < run.count {
                let count = min(buffer.count, run.count - first)
                try buffer.withUnsafeMutableBytes { bytes in
                    try read(into: bytes.baseAddress!, count: count * stride, at: run.offset + first * stride)
                }
                for entry in buffer[..<count] { all.insert(entry.fingerprint) }
                first += count
            }
        }
    }

    private func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) throws {
        var done = 0
        while done < count {
            let result = pread(descriptor, buffer + done, count - done, off_t(offset + done))
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw Self.failure("read keys back from a temporary file in", directory) }
            done += result
        }
    }

    /// Starts loading what `find(fingerprint)` reads first.
    func prefetch(_ fingerprint: UInt64) {
        all.prefetch(fingerprint)
    }

    /// The value stored with `fingerprint`, if a run holds it.
    func find(_ fingerprint: UInt64) throws -> UInt64? {
        guard all.mayContain(fingerprint) else { return nil }
        for run in runs where run.filter.mayContain(fingerprint) {
            let blockIndex = Self.lastIndex(in: run.fences, notAbove: fingerprint)
            guard blockIndex >= 0 else { continue }
            let first = blockIndex * Self.blockEntries
            let count = min(Self.blockEntries, run.count - first)
            let found = try block.withUnsafeMutableBytes { bytes -> UInt64? in
                let stride = MemoryLayout<Entry>.stride
                try read(into: bytes.baseAddress!, count: count * stride, at: run.offset + first * stride)
                let entries = bytes.bindMemory(to: Entry.self)
                var low = 0, high = count
                while low < high {
                    let middle = (low + high) / 2
                    if entries[middle].fingerprint < fingerprint { low = middle + 1 } else { high = middle }
                }
                return low < count && entries[low].fingerprint == fingerprint ? entries[low].value : nil
            }
            if let found { return found }
        }
        return nil
    }

    /// The index of the last element ≤ `value` in an ascending array, -1 if there is none.
    private static func lastIndex(in sorted: [UInt64], notAbove value: UInt64) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low - 1
    }

    private static func failure(_ action: String, _ directory: String) -> StoreError {
        StoreError(
            .storage(resultCode: nil),
            "the key ledger cannot \(action) \(directory): \(String(cString: strerror(errno))); "
                + "set TMPDIR to a directory with free space")
    }
}
