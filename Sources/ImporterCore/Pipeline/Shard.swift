/// One of N slices of a run (`--shard K/N`, docs/dynamodb.md): a source with at least N files gives
/// this shard every N-th file; a source with fewer gives it every N-th block of records of each
/// file (blocks of `ReadStage.partSize` records or `partBytes`, cut at record boundaries as the
/// part parsers cut them, quoted newlines included). Every shard reads the same files in the same way, so
/// the N shards together take each record exactly once.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// From 1.
    package let index: Int
    package let count: Int

    /// `K/N` with 1 ≤ K ≤ N.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            (1...count).contains(index)
        else {
            return nil
        }
        self.index = index
        self.count = count
    }

    package var description: String { "\(index)/\(count)" }

    /// The folder of this shard's reports (and checkpoint) inside the pipeline's report folder.
    package var directoryName: String { "shard-\(index)-of-\(count)" }

    /// Whether the `ordinal`-th file or block (from 0) is this shard's.
    package func takes(_ ordinal: Int) -> Bool { ordinal % count == index - 1 }
}
