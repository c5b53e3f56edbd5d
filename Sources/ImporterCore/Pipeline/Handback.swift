import Foundation

/// Values one thread hands back to another to be released there.
final class Handback<Element>: @unchecked Sendable {
    private var items: [Element] = []
    private let lock = NSLock()

    func put(_ item: Element) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    /// Releases everything handed back so far, on the calling thread.
    func releaseAll() {
        lock.lock()
        let taken = items
        items = []
        lock.unlock()
        withExtendedLifetime(taken) {}
    }
}
