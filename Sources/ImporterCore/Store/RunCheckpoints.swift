/// Where an interrupted run stands (docs/writes.md#resume), kept by the store so that it never claims more
/// or less than what is stored.
package protocol RunCheckpoints: AnyObject, Sendable {
    /// Saves `checkpoint`, and adds the batch's write-stage rejections to it, in the open
    /// transaction, so both become durable with the batch at the next `commit()`.
    func saveCheckpoint(_ checkpoint: Checkpoint, adding rejections: [Checkpoint.WriteRejection]) throws
    /// The checkpoint of an interrupted run, if there is one.
    func loadCheckpoint() throws -> Checkpoint?
    /// Forgets the checkpoint: the run it belonged to finished.
    func clearCheckpoint() throws
}
