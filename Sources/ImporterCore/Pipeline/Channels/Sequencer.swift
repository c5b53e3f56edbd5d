/// A blocking channel that hands items out in the order of their sequence numbers (0, 1, 2, …),
/// whatever order threads put them in. Items at most `window` ahead of the next one to be taken
/// wait in it; a thread putting one further ahead waits, so memory stays bounded.
final class Sequencer<Element>: Sendable {
    private struct State {
        var waiting: [Int: Element] = [:]
        var next = 0
    }

    private let state = ConditionBox(State())
    private let window: Int

    init(window: Int) { self.window = window }

    func put(_ item: sending Element, sequence: Int) {
        nonisolated(unsafe) let item = item  // sent: the caller has given it up
        state.wait(until: { [window] in sequence < $0.next + window }) { $0.waiting[sequence] = item }
    }

    /// The item numbered next, once it is there.
    func take() -> sending Element {
        state.wait(until: { $0.waiting[$0.next] != nil }) { state in
            nonisolated(unsafe) let item = state.waiting.removeValue(forKey: state.next)!  // only the taker has it
            state.next += 1
            return item
        }
    }
}
