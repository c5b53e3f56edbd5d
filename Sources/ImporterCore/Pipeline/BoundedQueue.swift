import Foundation

/// A blocking FIFO of bounded length between two threads: the reader/validator side puts
/// batches, the writer side takes them. Bounding it keeps memory flat when writing is slower.
final class BoundedQueue<Element>: @unchecked Sendable {
    private var items: [Element] = []
    private let capacity: Int
    private let condition = NSCondition()

    init(capacity: Int) { self.capacity = capacity }

    func put(_ item: Element) {
        condition.lock()
        while items.count >= capacity { condition.wait() }
        items.append(item)
        condition.broadcast()
        condition.unlock()
    }

    func take() -> Element {
        condition.lock()
        while items.isEmpty { condition.wait() }
        let item = items.removeFirst()
        condition.broadcast()
        condition.unlock()
        return item
    }
}
