/// How a run ended (report.json `status`, docs/reports.md#status).
public enum RunStatus: String, Codable, Sendable {
    /// Every record accounted for and none rejected.
    case succeeded
    /// Finished, with rejections (perhaps past an error limit at the end of the input).
    case partial
    /// Stopped early (an error limit passed before the end of the input, a store
    /// failure); committed batches stay.
    case aborted
    /// Stopped early because it was asked to (SIGINT, SIGTERM): the batch in flight was
    /// finished or rolled back; committed batches stay, and `--resume` continues after them.
    case interrupted

    /// Whether the run stopped before the end of its input.
    public var stoppedEarly: Bool { self == .aborted || self == .interrupted }
}
