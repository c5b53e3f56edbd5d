import Foundation

/// Fingerprints that no longer fit in memory: sorted runs appended to a temporary file that is
/// unlinked at once (the system frees it when the ledger closes it, even after a crash).
///
/// Each run keeps a Bloom filter in memory (10 bits a key, about 1 % false positives) and the
/// first fingerprint of each 4 KiB block, so a lookup reads at most one block of each run its
/// filter cannot rule out, and most new keys are confirmed new without touching the disk.
package final class SpilledFingerprints {
    typealias Entry = FingerprintTable.Entry

    private let descriptor: Int32
    private let directory: String
    private var end = 0
    private var runs: [Run] = []
    private var block: [Entry]

    private struct Run {
        let offset: Int
        let count: Int
        /// The first fingerprint of each block.
        let fences: [UInt64]
        let filter: BloomFilter
    }

    private static let blockEntries = 4096 / MemoryLayout<Entry>.stride

    init() throws {
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
        var filter = BloomFilter(capacity: entries.count)
        var fences: [UInt64] = []
        fences.reserveCapacity(entries.count / Self.blockEntries + 1)
        for (index, entry) in entries.enumerated() {
            filter.insert(entry.fingerprint)
            if index % Self.blockEntries == 0 { fences.append(entry.fingerprint) }
        }
        try entries.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let result = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(end + written))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { throw Self.failure("write keys to a temporary file in", directory) }
                written += result
            }
        }
        runs.append(Run(offset: end, count: entries.count, fences: fences, filter: filter))
        end += entries.count * MemoryLayout<Entry>.stride
    }

    /// The value stored with `fingerprint`, if a run holds it.
    func find(_ fingerprint: UInt64) throws -> UInt64? {
        for run in runs where run.filter.mayContain(fingerprint) {
            let blockIndex = Self.lastIndex(in: run.fences, notAbove: fingerprint)
            guard blockIndex >= 0 else { continue }
            let first = blockIndex * Self.blockEntries
            let count = min(Self.blockEntries, run.count - first)
            let found = try block.withUnsafeMutableBytes { bytes -> UInt64? in
                let wanted = count * MemoryLayout<Entry>.stride
                var read = 0
                while read < wanted {
                    let result = pread(descriptor, bytes.baseAddress! + read, wanted - read,
                                       off_t(run.offset + first * MemoryLayout<Entry>.stride + read))
                    if result < 0, errno == EINTR { continue }
                    guard result > 0 else { throw Self.failure("read keys back from a temporary file in", directory) }
                    read += result
                }
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
        StoreError("the key ledger cannot \(action) \(directory): \(String(cString: strerror(errno))); "
            + "set TMPDIR to a directory with free space")
    }
}
