/// A blocking FIFO of bounded length from one stage's thread to the next one's. Bounding it
/// keeps memory flat when the next stage is slower. Items move over it by value: a sender
/// keeps no reference to what it put (`sending`).
final class BoundedChannel<Element>: Sendable {
    private let items: ConditionBox<[Element]>
    private let capacity: Int

    init(capacity: Int) {
        items = ConditionBox([])
        self.capacity = capacity
    }

    /// Waits for room, then appends `item`.
    func put(_ item: sending Element) {
        nonisolated(unsafe) let item = item  // sent: the caller has given it up
        items.wait(until: { [capacity] in $0.count < capacity }) { $0.append(item) }
    }

    /// Waits for an item, then takes the oldest.
    func take() -> sending Element {
        items.wait(until: { !$0.isEmpty }) { items in
            nonisolated(unsafe) let item = items.removeFirst()  // leaves the channel: only the taker has it
            return item
        }
    }
}
