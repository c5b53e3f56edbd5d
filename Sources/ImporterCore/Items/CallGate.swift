import Dispatch
import Synchronization

/// Lets the calls of an `ItemStore` run one at a time, in the order they came: a synchronous
/// call waits with its thread blocked (`enterBlocking`), an async one suspended (`enter`), so an
/// async call holds no thread of Swift concurrency's pool while another call runs.
final class CallGate: Sendable {
    private enum Waiter {
        case thread(DispatchSemaphore)
        case task(CheckedContinuation<Void, Never>)
    }

    private struct State {
        var busy = false
        var waiting: [Waiter] = []
    }

    private let state = Mutex(State())

    /// Waits, blocking the thread, until no other call runs.
    func enterBlocking() {
        let turn = state.withLock { state -> DispatchSemaphore? in
            guard state.busy else {
                state.busy = true
                return nil
            }
            let turn = DispatchSemaphore(value: 0)
            state.waiting.append(.thread(turn))
            return turn
        }
        turn?.wait()
    }

    /// Waits, suspended, until no other call runs.
    func enter() async {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(.task(turn))
                return false
            }
            if now { turn.resume() }
        }
    }

    /// Ends the running call: the first waiting one, if any, runs next.
    func leave() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        switch next {
        case .thread(let turn): turn.signal()
        case .task(let turn): turn.resume()
        case nil: break
        }
    }
}
