/// Values one thread hands back to another to be released there (memory freed on another
/// thread than the allocating one contends on malloc's locks).
package final class Handback<Element: Sendable>: Sendable {
    private let items = ConditionBox<[Element]>([])

    package init() {}

    func put(_ item: Element) {
        items.withLock { $0.append(item) }
    }

    /// Releases everything handed back so far, on the calling thread.
    func releaseAll() {
        let taken = items.withLock { items in
            defer { items = [] }
            return items
        }
        withExtendedLifetime(taken) {}
    }
}
