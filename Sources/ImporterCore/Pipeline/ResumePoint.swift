import Foundation
import Logging

/// Where a run starts (docs/writes.md#resume): from the first record, or after the last commit of an
/// interrupted run (`--resume`), and the checkpoint this run saves with every commit.
struct ResumePoint: Sendable {
    /// Per input, the records already done by the interrupted run.
    var skipBefore: [Int]
    /// The interrupted run's write-stage rejections, by input and record number.
    var doneRejections: [[Int: Checkpoint.WriteRejection]]
    /// The interrupted run's checkpoint, when this run continues it.
    var interrupted: Checkpoint?
    /// The checkpoint saved with every commit; nil when the run keeps none (dry or atomic runs).
    var checkpoint: Checkpoint?
    /// Per input, what identifies its content (for the checkpoint).
    var fingerprints: [InputFingerprint] = []

    /// A run from the first record of every input, saving no checkpoints.
    init(inputCount: Int) {
        skipBefore = Array(repeating: 0, count: inputCount)
        doneRejections = Array(repeating: [:], count: inputCount)
    }

    /// Fingerprints the inputs (with `digests` when they were taken already) and starts this
    /// run's checkpoint; for `--resume`, takes over the interrupted run's checkpoint. Refuses
    /// it, before anything is written, if an input changed (`ConfigurationError`). Tells
    /// `logger` when it starts from the beginning although a checkpoint exists or `resume` asked.
    init(
        store: any RunCheckpoints, inputs: [RunInput], digests: [InputDigest]?, pipelineFile: String, runId: String,
        resume: Bool,
        logger: Logger
    ) throws {
        self.init(inputCount: inputs.count)
        var fingerprints: [InputFingerprint] = []
        for (index, input) in inputs.enumerated() {
            // A document source's inputs share its file, which is hashed once.
            if let first = inputs.firstIndex(where: { $0.path == input.path }), first < index {
                fingerprints.append(fingerprints[first])
            } else {
                fingerprints.append(try input.fingerprint(digest: digests?[index]))
            }
        }
        self.fingerprints = fingerprints
        let pipeline = RunInput.absolute(pipelineFile)
        checkpoint = Checkpoint(pipeline: pipeline, runId: runId)
        let previous = try store.loadCheckpoint()
        guard resume else {
            if previous != nil {
                logger.notice(
                    "a checkpoint of an interrupted run exists; starting from the beginning (pass --resume to continue it)"
                )
                try store.clearCheckpoint()  // its rejections must not be listed again by a later --resume
            }
            return
        }
        guard let previous else {
            logger.warning("--resume: no interrupted run to continue; starting from the beginning")
            return
        }
        guard previous.pipeline == pipeline else {
            throw ConfigurationError(
                file: pipelineFile,
                "--resume: the store's checkpoint belongs to pipeline \(previous.pipeline); run that pipeline with --resume, or run this one without it"
            )
        }
        try take(previous, inputs: inputs, pipelineFile: pipelineFile)
    }

    /// Continues `previous`: every input it names must be an input now, with the same content.
    private mutating func take(_ previous: Checkpoint, inputs: [RunInput], pipelineFile: String) throws {
        for state in previous.inputs {
            guard let index = inputs.firstIndex(where: { $0.checkpointName == state.path }) else {
                throw ConfigurationError(
                    file: pipelineFile,
                    "--resume: \(state.path) was an input of the interrupted run but is not one now; run without --resume to start over (records already written count as unchanged)"
                )
            }
            guard fingerprints[index] == state.fingerprint else {
                throw ConfigurationError(
                    file: state.path,
                    "--resume: the input changed since the interrupted run (size \(state.fingerprint.size) → \(fingerprints[index].size) bytes, content \(state.fingerprint.content) → \(fingerprints[index].content)), so its first \(state.nextRecord) records may not be the ones written; run without --resume to start over (records already written count as unchanged)"
                )
            }
            skipBefore[index] = state.nextRecord
        }
        for rejection in previous.rejections {
            if let index = inputs.firstIndex(where: { $0.checkpointName == rejection.path }) {
                doneRejections[index][rejection.record] = rejection
            }
        }
        checkpoint?.inputs = previous.inputs
        interrupted = previous
    }
}
