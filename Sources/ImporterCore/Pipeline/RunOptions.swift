/// Options of one run that are not in the pipeline file.
public struct RunOptions: Sendable {
    /// Read, map and validate only; write nothing to the store (`importer validate`).
    public var dryRun = false
    public var quiet = false
    /// Overrides the pipeline's `report.directory`.
    public var reportDirectory: String?
    /// Continue after the checkpoint of an interrupted run (SPEC §12).
    public var resume = false
    /// Save a checkpoint with every commit. Off for inputs that are not files of their own
    /// (a restore's archive entries): such a run is started again instead, and its replays are
    /// unchanged items.
    public var checkpoints = true
    /// Accept an edited model file for the store's version (`--accept-model-change`).
    public var acceptModelChange = false

    public init(dryRun: Bool = false, quiet: Bool = false, reportDirectory: String? = nil, resume: Bool = false, checkpoints: Bool = true,
                acceptModelChange: Bool = false) {
        self.dryRun = dryRun
        self.quiet = quiet
        self.reportDirectory = reportDirectory
        self.resume = resume
        self.checkpoints = checkpoints
        self.acceptModelChange = acceptModelChange
    }
}
