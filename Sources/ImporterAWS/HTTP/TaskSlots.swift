import Synchronization

/// A counting semaphore for tasks: `acquire` suspends (never blocks a thread) until a slot is
/// free; slots are granted in the order they were asked for.
package final class TaskSlots: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    package init(_ count: Int) { state = Mutex(State(free: count)) }

    package func acquire() async {
        await withCheckedContinuation { (slot: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(slot)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { slot.resume() }
        }
    }

    package func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
