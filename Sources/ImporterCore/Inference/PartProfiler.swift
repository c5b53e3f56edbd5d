import Foundation

/// Profiles a file on `threadCount` threads: its reader cuts parts (whole records) on the
/// calling thread, the threads parse and profile them (each part's records made and freed on
/// one thread), and the part profiles are joined in file order. The result is the profile one
/// pass would have made. Cutting costs a scan of its own, so this pays only when cores are idle
/// (`coresAreIdle`), as `make --load-average` reasons.
package enum PartProfiler {
    static let threadCount = 2
    /// Records per part.
    package static let partSize = 8192

    private struct Part {
        let sequence: Int
        let reader: RecordReader
    }

    /// Whether the last minute's load average is below the number of cores (some core was idle):
    /// on cores that other work keeps busy the cutting scan costs more than the threads gain.
    package static func coresAreIdle() -> Bool {
        var load = [0.0]
        guard getloadavg(&load, 1) == 1 else { return false }
        return load[0] < Double(ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The profile of everything `reader` reads; `empty` is the file's profile before any
    /// record. `quotedCells` says which marker-text cells of a record were quoted (CSV).
    package static func profile(
        _ reader: PartitionedRecordReader, into empty: FileProfile,
        quotedCells: @escaping @Sendable (SourceRecord) -> Set<Int>
    ) throws -> FileProfile {
        let (path, format, csv, expected) = (empty.path, empty.format, empty.csv, empty.expectedRecords)
        let parts = try map(reader) { part in
            var profile = FileProfile(path: path, format: format, csv: csv)
            profile.expectedRecords = min(expected, partSize)
            _ = try profile.observeRecords(of: part, quotedCells: quotedCells)
            return profile
        }
        var profile = empty
        for part in parts { profile.append(part) }
        return profile
    }

    /// `body` of every part `reader` cuts (`partSize` records each, fewer once a part holds
    /// `maximumBytes`), run on `threadCount` threads, each part on one; the results in file
    /// order. The first error, of cutting or of a part, is thrown once every thread is done.
    package static func map<Result>(
        _ reader: PartitionedRecordReader, maximumBytes: Int = .max,
        _ body: @escaping @Sendable (RecordReader) throws -> Result
    ) throws -> [Result] {
        let parts = BoundedChannel<Part?>(capacity: threadCount * 2)
        let threads = (0..<threadCount).map { number in
            StageThread("infer part profiler \(number + 1)", owning: ()) { _ -> [(Int, Swift.Result<Result, Error>)] in
                var done: [(Int, Swift.Result<Result, Error>)] = []
                while let part = parts.take() {
                    done.append((part.sequence, Swift.Result { try body(part.reader) }))
                }
                return done
            }
        }
        var sequence = 0
        var cutError: Error?
        do {
            while let reader = try reader.nextPart(maximumRecords: partSize, maximumBytes: maximumBytes) {
                parts.put(Part(sequence: sequence, reader: reader))
                sequence += 1
            }
        } catch {
            cutError = error
        }
        for _ in threads { parts.put(nil) }
        let done = threads.flatMap { $0.join() }.sorted { $0.0 < $1.0 }
        if let cutError { throw cutError }
        return try done.map { try $0.1.get() }
    }
}
