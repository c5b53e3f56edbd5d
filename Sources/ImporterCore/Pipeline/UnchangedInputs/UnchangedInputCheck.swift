import Foundation
import Logging

/// Whether a run has anything to do: when every input is a local file with the bytes of the
/// last run that stored each of its records, through the same pipeline, model and program,
/// and nothing has written to the store since, reading them again would find every record
/// unchanged. Such a run reads nothing and reports them so (docs/writes.md).
///
/// Only runs that can be recorded so are checked: `upsert` runs of local files into a store
/// that keeps the records (SQLite), neither dry runs nor shards nor restores. Built before the
/// run (it hashes every input); `record` after it.
struct UnchangedInputCheck {
    private let store: any UnchangedInputRecords
    private let model: Model
    private let inputs: [RunInput]
    /// Every input's digest, taken once: the checkpoint's fingerprints use them too.
    let digests: [InputDigest]
    private let setup: String
    /// Where `record` says why it could not record the inputs.
    private let logger: Logger

    init?(
        _ inputs: [RunInput], config: PipelineConfig, model: Model, versions: VersionedModel?, store: (any Store)?,
        options: RunOptions
    ) {
        guard !options.dryRun, options.shard == nil, options.checkpoints, config.write.mode == .upsert,
            let textDigest = config.textDigest, let store = store as? any UnchangedInputRecords,
            !inputs.isEmpty, inputs.allSatisfy({ $0.remote == nil })
        else { return nil }
        var digests: [InputDigest] = []
        for input in inputs {
            // A document source's inputs share its file, which is hashed once.
            if let first = inputs.firstIndex(where: { $0.path == input.path }), first < digests.count {
                digests.append(digests[first])
                continue
            }
            guard let digest = InputDigest(of: input.path) else { return nil }
            digests.append(digest)
        }
        var setup = SHA256Digest()
        // The program itself: another build may map the same bytes otherwise.
        let program =
            Bundle.main.executablePath.flatMap(FileIdentity.init(of:)).map { "\($0.size) \($0.modified)" } ?? "?"
        var text =
            "importer \(ToolVersion.current) \(program)\npipeline \(textDigest)\nmodel \(model.name) \(model.version) \(model.checksum)\n"
        for version in versions?.versions ?? [] { text += "version \(version.version) \(version.checksum)\n" }
        for input in inputs { text += "input \(input.entity.name)\t\(input.absolutePath)\n" }
        setup.update(Array(text.utf8))
        self.store = store
        self.model = model
        self.inputs = inputs
        self.digests = digests
        self.setup = setup.hexDigest()
        logger = options.logger
    }

    /// The run that stored every record of these inputs, and how many each had, if the store
    /// recorded exactly these inputs and nothing has written to it since.
    func recordedRun() throws -> (runId: String, records: [Int])? {
        let recorded = try store.unchangedInputs(of: model)
        guard recorded.count == inputs.count, let runId = recorded.first?.runId else { return nil }
        var records: [Int] = []
        for (input, digest) in zip(inputs, digests) {
            guard
                let match = recorded.first(where: { $0.path == input.absolutePath && $0.entity == input.entity.name }),
                match.digest == digest.hex, match.setup == setup, match.runId == runId
            else { return nil }
            records.append(match.records)
        }
        return (runId, records)
    }

    /// After a run that stored every record of every input (none rejected, rolled back, in
    /// conflict or with a missing reference kept) and left each file as it was hashed: records
    /// the inputs for the next run. Tells the run's logger why when it cannot; a run that
    /// records nothing only means that the next one reads its inputs.
    func record(_ recorder: RunRecorder, runId: String) {
        guard !recorder.isAborted, recorder.errorLimit == nil, recorder.missingReferences.isEmpty else { return }
        let counts = recorder.inputs.map(\.counts)
        guard counts.allSatisfy({ $0.rejected == 0 && $0.notStored == 0 && $0.conflicts == 0 && $0.isBalanced }) else {
            return
        }
        guard zip(inputs, digests).allSatisfy({ FileIdentity(of: $0.path) == $1.identity }) else { return }
        let recorded = zip(inputs, zip(digests, counts)).map { input, stored in
            UnchangedInput(
                path: input.absolutePath, entity: input.entity.name, digest: stored.0.hex, setup: setup,
                records: stored.1.read, runId: runId)
        }
        do {
            if try !store.recordUnchangedInputs(recorded, of: model) {
                logger.notice(
                    "another connection wrote to the store during the run; the next run reads every input again")
            }
        } catch {
            logger.warning("cannot record the inputs as stored (\(error)); the next run reads every input again")
        }
    }
}
