/// Profiles records on a thread of its own while the caller's thread reads the next ones: the
/// reader (parsing, making strings) and the profile (types, hashes) each get a core, and each
/// record is parsed once. Records cross over in batches.
public final class BackgroundProfiler {
    /// Records per batch handed over.
    static let batchSize = 4096

    private let batches = BoundedChannel<[SourceRecord]?>(capacity: 4)
    /// Profiled batches, freed on the reading thread that made them (as the pipeline does).
    private let profiled = Handback<[SourceRecord]>()
    private let thread: StageThread<FileProfile>
    private var batch: [SourceRecord] = []

    /// Starts the thread that adds records to `profile`. `quotedCells` says which marker-text
    /// cells of a record were quoted (CSV).
    public init(_ profile: sending FileProfile, quotedCells: @escaping @Sendable (SourceRecord) -> Set<Int>) {
        batch.reserveCapacity(Self.batchSize)
        thread = StageThread("infer profiler", owning: profile) { [batches, profiled] profile in
            while let batch = batches.take() {
                batch.withUnsafeBufferPointer { records in
                    for index in records.indices { profile.observe(records[index], quotedCells: quotedCells(records[index])) }
                }
                profiled.put(batch)
            }
            return profile
        }
    }

    /// Adds a record (in file order).
    public func add(_ record: SourceRecord) {
        batch.append(record)
        if batch.count == Self.batchSize { handOver() }
    }

    /// Waits for the thread to profile every record added, and returns the profile.
    public func finish() -> FileProfile {
        if !batch.isEmpty { handOver() }
        batches.put(nil)
        let profile = thread.join()
        profiled.releaseAll()
        return profile
    }

    private func handOver() {
        profiled.releaseAll()
        let full = batch
        batch = []
        batch.reserveCapacity(Self.batchSize)
        batches.put(full)
    }
}
