import Foundation

/// The delete phase of `mode: sync`, once every input is written: stored items of the
/// pipeline's entities that no record named are deleted (docs/writes.md); a dry run only plans it.
struct SyncDeletePhase {
    let model: Model
    let inputs: [RunInput]
    let store: any Store
    let limit: WriteConfig.DeleteLimit
    let dryRun: Bool
    let reportDirectory: String
    /// Saves what the phase did with its deletes, before they are committed (the checkpoint).
    var committing: ((Checkpoint.CommittedDeletes) throws -> Void)?
    /// Saves what the phase will delete before the first delete (`planned`), on a store that
    /// cannot roll back.
    var planning: ((Checkpoint.CommittedDeletes) throws -> Void)?
    /// The deletes.ndjson lines an interrupted run's phase planned before it was stopped among
    /// its deletes: those this run's plan no longer finds were made, and are reported.
    var interruptedPlan: String?

    /// Runs the phase after the key stage (which knows the keys the input named) is done, and
    /// writes `deletes.ndjson`.
    func run(keys: KeyStage, recorder: RunRecorder) -> RunReport.DeletePhase {
        var phase = RunReport.DeletePhase()
        if let reason = recorder.abortReason {
            phase.refused = "the run was aborted (\(reason)); sync deletes nothing after an incomplete read"
            return phase
        }
        if let limit = recorder.errorLimit {
            phase.refused =
                "the run passed an error limit (\(limit)); sync deletes nothing when that many records were rejected"
            return phase
        }
        if let (entity, count) = keys.unkeyedRejects.first {
            phase.refused =
                "\(count) rejected \(entity) record(s) have no readable key, so sync cannot tell which stored items vanished; nothing was deleted. Fix them (see rejects.ndjson) and run again"
            return phase
        }
        let entities = model.parentsFirstOrder.compactMap { name in
            inputs.contains { $0.entity.name == name } ? model.entity(named: name) : nil
        }
        do {
            let sync = SyncDeletes(model: model, store: store, limit: limit)
            let outcome = try sync.run(
                entities: entities, preview: dryRun,
                isInInput: { entity, key in try keys.wasNamed(key, entity: entity) },
                beforeApplying: planning.map { save in
                    { planned in
                        try save(
                            .init(
                                phase: RunReport.DeletePhase(planned), lines: DeletesFile.lines(of: planned),
                                planned: true))
                    }
                },
                interruptedPlan: interruptedPlan,
                beforeCommit: committing.map { save in
                    { outcome in
                        try save(.init(phase: RunReport.DeletePhase(outcome), lines: DeletesFile.lines(of: outcome)))
                    }
                })
            phase = RunReport.DeletePhase(outcome)
            try DeletesFile.write(outcome, to: FilePaths.join(reportDirectory, "deletes.ndjson"))
        } catch {
            if dryRun {
                phase.refused = "cannot plan the delete phase: \(error)"
            } else {
                recorder.abort(.store("the sync delete phase failed", error))
                phase.refused = "the store failed during the delete phase; nothing of it was committed"
            }
        }
        return phase
    }
}
