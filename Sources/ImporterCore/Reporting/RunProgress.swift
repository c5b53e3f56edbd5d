/// How far a run's read stage has got, as handed to a `ProgressHandler`
/// (docs/library.md#warnings-and-progress).
package struct RunProgress: Sendable, Equatable {
    /// The file name of the input being read.
    package var input: String
    /// Records read of that input so far.
    package var records: Int
    /// Bytes read of all the run's inputs so far.
    package var bytesRead: Int64
    /// Bytes of all the run's inputs (0 when their sizes are unknown).
    package var totalBytes: Int64
    /// Seconds since the read stage started.
    package var elapsed: Double
    /// True for the last report of a run, sent once when reading ends (however it ends).
    package var isFinal: Bool

    package init(
        input: String, records: Int, bytesRead: Int64, totalBytes: Int64, elapsed: Double, isFinal: Bool = false
    ) {
        self.input = input
        self.records = records
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.elapsed = elapsed
        self.isFinal = isFinal
    }

    /// `records` per second of `elapsed`.
    package var recordsPerSecond: Double { elapsed > 0 ? Double(records) / elapsed : 0 }

    /// The part of the input bytes read, 0 to 1.
    package var fraction: Double { totalBytes > 0 ? min(1, Double(bytesRead) / Double(totalBytes)) : 0 }

    /// Seconds until every input is read, at the rate so far; nil until 1 % of the bytes is read.
    package var secondsLeft: Double? { fraction > 0.01 ? elapsed * (1 - fraction) / fraction : nil }
}
