import Foundation

/// A blocking queue that hands items out in the order of their sequence numbers (0, 1, 2, …),
/// whatever order threads put them in. Items at most `window` ahead of the next one to be taken
/// wait in it; a thread putting one further ahead waits, so memory stays bounded.
final class Sequencer<Element>: @unchecked Sendable {
    private var waiting: [Int: Element] = [:]
    private var next = 0
    private let window: Int
    private let condition = NSCondition()

    init(window: Int) { self.window = window }

    func put(_ item: Element, sequence: Int) {
        condition.lock()
        while sequence >= next + window { condition.wait() }
        waiting[sequence] = item
        condition.broadcast()
        condition.unlock()
    }

    /// The item numbered next, once it is there.
    func take() -> Element {
        condition.lock()
        while waiting[next] == nil { condition.wait() }
        let item = waiting.removeValue(forKey: next)!
        next += 1
        condition.broadcast()
        condition.unlock()
        return item
    }
}
