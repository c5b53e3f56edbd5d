/// Checks that reports are the shards of one run before `ReportMerge` sums them
/// (docs/commands.md, `importer report merge`): each a shard's report, each run once, of one
/// pipeline (the same file, text and variables) cut into the same N, and for each choice of
/// `--entities` every shard from 1 to N exactly once. Anything else would count records twice
/// or leave some out; it is a `ConfigurationError` naming the report file.
enum ShardSet {
    /// `reports[i]` was read from `files[i]`.
    static func check(_ reports: [RunReport], files: [String]) throws {
        var seenRuns: [String: String] = [:]
        var shards: [(shard: ShardOfRun, file: String)] = []
        for (report, file) in zip(reports, files) {
            if let earlier = seenRuns[report.runId] {
                throw ConfigurationError(
                    file: file,
                    "the report of run \(report.runId) is given twice (also as \(earlier)); give each shard's report once"
                )
            }
            seenRuns[report.runId] = file
            guard let shard = report.shard else {
                throw ConfigurationError(
                    file: file,
                    "run \(report.runId) is not a shard of a run (its report has no \"shard\"); merge the reports that `importer run --shard K/N` writes into <report dir>/shard-K-of-N"
                )
            }
            if let (first, firstFile) = shards.first,
                shard.pipelineDigest != first.pipelineDigest || shard.count != first.count
            {
                throw ConfigurationError(
                    file: file,
                    "\(shard.description) of pipeline \(report.pipelineFile) is not of the run of \(firstFile) (\(first.description)): \(shard.count != first.count ? "it is cut into \(shard.count) shards, not \(first.count)" : "the pipeline file or the values of its variables differ"); merge the shards of one run"
                )
            }
            if let twin = shards.first(where: { $0.shard.index == shard.index && $0.shard.overlaps(shard) }) {
                throw ConfigurationError(
                    file: file,
                    "\(shard.description) is also \(twin.file) (\(twin.shard.description)), so its records would count twice; give each shard's report once"
                )
            }
            shards.append((shard, file))
        }
        for selection in Set(shards.map(\.shard.entities)) {
            let indices = Set(shards.filter { $0.shard.entities == selection }.map(\.shard.index))
            guard let count = shards.first?.shard.count,
                let missing = (1...count).first(where: { !indices.contains($0) })
            else { continue }
            var example = shards.first { $0.shard.entities == selection }!.shard
            example.index = missing
            throw ConfigurationError(
                file: shards.first { $0.shard.entities == selection }!.file,
                "\(example.description) is missing: the merged report would leave its records out; give the reports of all \(count) shards"
            )
        }
    }
}
