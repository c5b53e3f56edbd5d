/// What ties a shard's report to its run (`report.json`'s `shard`, docs/reports.md): the
/// shard, the entities it loaded and the pipeline it ran. `importer report merge` sums only
/// reports that agree on all but the shard's index.
package struct ShardOfRun: Codable, Sendable, Equatable {
    /// K of `--shard K/N`, from 1.
    package var index: Int
    /// N of `--shard K/N`.
    package var count: Int
    /// `--entities`, sorted; nil: every entity with a source.
    package var entities: [String]?
    /// SHA-256 of the pipeline file (its path and text) and of the value of each `${VAR}` in
    /// it: shards of one run read one pipeline with the same variables. Nil for a pipeline
    /// built in code.
    package var pipelineDigest: String?

    package init(_ shard: Shard, entities: [String]?, pipelineDigest: String?) {
        index = shard.index
        count = shard.count
        self.entities = entities?.sorted()
        self.pipelineDigest = pipelineDigest
    }

    /// `K/N`, with the entities when `--entities` chose some.
    package var description: String {
        "shard \(index)/\(count)" + (entities.map { " (--entities \($0.joined(separator: ",")))" } ?? "")
    }

    /// Whether the two load an entity in common (nil: every entity).
    func overlaps(_ other: ShardOfRun) -> Bool {
        guard let mine = entities, let theirs = other.entities else { return true }
        return !Set(mine).isDisjoint(with: theirs)
    }
}
