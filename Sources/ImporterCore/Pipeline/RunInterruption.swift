import Synchronization

/// A request to stop a run before the end of its input, from outside it (the command line
/// turns SIGINT and SIGTERM into one). The run stops reading, finishes or rolls back the batch
/// in flight, and reports `interrupted` (exit 3) with what to do next (docs/reports.md#status).
package final class RunInterruption: Sendable {
    private struct State {
        var reason: String?
        var handlers: [@Sendable (String) -> Void] = []
    }

    private let state = Mutex(State())

    package init() {}

    /// Asks the run to stop; only the first request counts. Returns whether this was the first.
    @discardableResult
    package func interrupt(_ reason: String) -> Bool {
        let handlers: [@Sendable (String) -> Void]? = state.withLock { state in
            guard state.reason == nil else { return nil }
            state.reason = reason
            return state.handlers
        }
        handlers?.forEach { $0(reason) }
        return handlers != nil
    }

    /// Whether the run was asked to stop, and why.
    package var reason: String? { state.withLock { $0.reason } }

    /// Calls `handler` when the run is asked to stop (at once if it was already).
    func onInterrupt(_ handler: @escaping @Sendable (String) -> Void) {
        let reason: String? = state.withLock { state in
            if state.reason == nil { state.handlers.append(handler) }
            return state.reason
        }
        if let reason { handler(reason) }
    }
}
