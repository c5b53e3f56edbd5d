import ImporterCore

extension StagedKeys {
    /// How many ranges of keys a large set is cut into, and from how many keys.
    private static let parts = 8
    private static let cutFrom = 16_384

    /// Calls `part` with the keys in the order SQLite's index keeps them (their bytes compared
    /// as `memcmp` does, the shorter first where one begins the other), each with its rowid,
    /// and with the bytes of the keys longer than `headBytes` (an entry's `offset` is into these).
    ///
    /// Many keys are cut into ranges of keys, which a helper thread sorts one after another while
    /// `part` takes those sorted before: the caller writes while the rest is sorted. Returns false,
    /// having called `part` with none or some of the keys, when two keys are equal. The keys are
    /// let go of: call it once.
    func inKeyOrder(_ part: (UnsafeBufferPointer<Entry>, UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Bool {
        let long = self.long
        return try long.withUnsafeBufferPointer { long in
            let (ordered, bounds) = cutByKeyRange(long)
            defer { ordered.deallocate() }
            // Sorted parts so far: the first by this thread, the others by the helper.
            let sorted = ConditionBox(0)
            let orderedAddress = UInt(bitPattern: ordered.baseAddress), count = ordered.count
            let longAddress = UInt(bitPattern: long.baseAddress), longCount = long.count
            let helper =
                bounds.count > 2
                ? StageThread("key sort", owning: ()) { _ in
                    let ordered = UnsafeMutableBufferPointer(
                        start: UnsafeMutablePointer<Entry>(bitPattern: orderedAddress), count: count)
                    let long = UnsafeBufferPointer(
                        start: UnsafePointer<UInt8>(bitPattern: longAddress), count: longCount)
                    for index in 1..<bounds.count - 1 {
                        Self.sort(ordered, bounds[index]..<bounds[index + 1], long)
                        sorted.withLock { $0 = index + 1 }
                    }
                } : nil
            defer { _ = helper?.join() }
            Self.sort(ordered, bounds[0]..<bounds[1], long)
            for index in 0..<bounds.count - 1 {
                if index > 0 { sorted.wait(until: { $0 > index }) { _ in } }
                let keys = UnsafeBufferPointer(rebasing: ordered[bounds[index]..<bounds[index + 1]])
                for next in keys.indices.dropFirst() where Self.order(keys[next - 1], keys[next], long) == 0 {
                    return false
                }
                try part(keys, long)
            }
            return true
        }
    }

    /// The entries copied into ranges of keys, each range before the next, and where each
    /// range begins (the last bound is the count). Ranges are cut at keys sampled through the
    /// entries, so that they hold about as many keys each; equal keys fall in the same range.
    private func cutByKeyRange(_ long: UnsafeBufferPointer<UInt8>) -> (UnsafeMutableBufferPointer<Entry>, [Int]) {
        let ordered = UnsafeMutableBufferPointer<Entry>.allocate(capacity: count)
        guard count >= Self.cutFrom else {
            let count = self.count
            var next = ordered.baseAddress!
            drain { entry in
                next.initialize(to: entry)
                next += 1
            }
            return (ordered, [0, count])
        }
        var sample = stride(from: 0, to: count, by: count / 1024).map(entry)
        sample.sort { Self.order($0, $1, long) < 0 }
        let splitters = (1..<Self.parts).map { sample[$0 * sample.count / Self.parts] }
        // A key's range: how many splitters sort before it.
        let ranges = (0..<count).map { index in
            let entry = entry(index)
            var (low, high) = (0, splitters.count)
            while low < high {
                let middle = (low + high) / 2
                if Self.order(splitters[middle], entry, long) < 0 { low = middle + 1 } else { high = middle }
            }
            return UInt8(low)
        }
        var bounds = [Int](repeating: 0, count: Self.parts + 1)
        for range in ranges { bounds[Int(range) + 1] += 1 }
        for index in 1..<bounds.count { bounds[index] += bounds[index - 1] }
        // Each block let go of once copied: the keys are not held twice.
        var next = bounds, position = 0
        drain { entry in
            let range = Int(ranges[position])
            (ordered.baseAddress! + next[range]).initialize(to: entry)
            next[range] += 1
            position += 1
        }
        return (ordered, bounds)
    }

    private static func sort(
        _ entries: UnsafeMutableBufferPointer<Entry>, _ range: Range<Int>, _ long: UnsafeBufferPointer<UInt8>
    ) {
        var part = UnsafeMutableBufferPointer(rebasing: entries[range])
        part.sort { order($0, $1, long) < 0 }
    }
}
