/// Where a one-pass archive's bytes go (`StreamingTarWriter`): appended in order, except
/// placeholders, which are rewritten once (with bytes of the same length) when what they stand
/// for is known. One thread at a time uses an output.
protocol ArchiveOutput: AnyObject {
    /// Appends `bytes`.
    func append(_ bytes: [UInt8]) throws
    /// Appends a placeholder that `fill` replaces later; its offset.
    func reserve(_ bytes: [UInt8]) throws -> Int64
    /// Replaces the placeholder at `offset` (same length).
    func fill(_ bytes: [UInt8], at offset: Int64) throws
    /// Makes the archive appear under its name, whole (every placeholder filled).
    func finish() throws
    /// Gives up after a failure: nothing stays behind under the archive's name, nor half of it.
    func abandon()
}
