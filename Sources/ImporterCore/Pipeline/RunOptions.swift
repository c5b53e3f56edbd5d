import Foundation
import Logging

/// Options of one run that are not in the pipeline file.
package struct RunOptions: Sendable {
    /// Read, map and validate only; write nothing to the store (`importer validate`).
    package var dryRun = false
    /// Where the run's progress goes while it reads; nil: nowhere (docs/library.md#warnings-and-progress).
    package var progress: ProgressHandler?
    /// Where the run's warnings and notices go (docs/library.md#warnings-and-progress).
    package var logger = Logger(label: "importer.pipeline")
    /// Overrides the pipeline's `report.directory`.
    package var reportDirectory: String?
    /// Continue after the checkpoint of an interrupted run (docs/writes.md#resume).
    package var resume = false
    /// Save a checkpoint with every commit. Off for inputs that are not files of their own
    /// (a restore's archive entries): such a run is started again instead, and its replays are
    /// unchanged items.
    package var checkpoints = true
    /// Accept an edited model file for the store's version (`--accept-model-change`).
    package var acceptModelChange = false
    /// This run's slice of the inputs (`--shard K/N`); nil: all of them.
    package var shard: Shard?
    /// The entities this run loads (`--entities`); nil: every entity with a source.
    package var entities: [String]?
    /// Read every record even when the inputs are those the store recorded as stored in full,
    /// with nothing written since (`--read-unchanged`; docs/writes.md).
    package var readUnchanged = false
    /// Stops the run early when asked (a signal, docs/reports.md#status); nil: nothing will.
    package var interruption: RunInterruption?
    /// The run's id, in its report, its checkpoint and the store's lock (docs/writes.md).
    package var runId = UUID().uuidString.lowercased()
    /// The size from which a document's records are held packed until they are written
    /// (docs/documents.md#large-documents): less memory, more time.
    package var packedDocumentBytes = DocumentPreparer.PreparedDocument.packedFrom
    /// The keys the key checks hold in memory before they move to disk (`KeyLedger`).
    package var keysInMemory = KeyLedger.defaultMemoryLimit

    package init(
        dryRun: Bool = false, reportDirectory: String? = nil, resume: Bool = false, checkpoints: Bool = true,
        acceptModelChange: Bool = false
    ) {
        self.dryRun = dryRun
        self.reportDirectory = reportDirectory
        self.resume = resume
        self.checkpoints = checkpoints
        self.acceptModelChange = acceptModelChange
    }

    /// Where the report files (and a DynamoDB run's checkpoint) go: `--report-dir`, else the
    /// pipeline's; a shard's in a folder of its own inside it.
    package func reportDirectory(pipelineDefault: String) -> String {
        let base = reportDirectory ?? pipelineDefault
        return shard.map { FilePaths.join(base, $0.directoryName) } ?? base
    }
}
