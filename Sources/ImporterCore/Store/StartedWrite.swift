/// The outcomes of an `OverlappedWriting.startWrite` call, taken once the store has them: a store
/// whose writes wait on the network is handed the next window before it answers this one.
package struct StartedWrite {
    private let wait: () throws -> [WriteOutcome]

    /// `outcomes` blocks until the store has answered (or throws its `StoreError`).
    package init(_ outcomes: @escaping () throws -> [WriteOutcome]) { wait = outcomes }

    /// One outcome per record, in order, as `write` returns them.
    package func outcomes() throws -> [WriteOutcome] { try wait() }
}
