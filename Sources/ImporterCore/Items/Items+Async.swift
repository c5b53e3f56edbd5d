import Foundation

/// Runs a blocking store call on a Dispatch worker, so that the cooperative pool of an `async`
/// caller never waits on SQLite (or on another call of the same store).
func offload<T: Sendable>(_ call: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try call() }) }
    }
}

/// The `async` form of every call: the same call, off the caller's thread. On a store whose
/// requests are async (DynamoDB) the reads await them instead (`ItemStore.reading`).
extension EntityItems {
    public func count() async throws -> Int {
        try await owner.reading({ try self.count() }, awaiting: { try await $0.itemCount(of: entity) })
    }
    public func fetchAll() async throws -> [Item] {
        try await owner.reading({ try self.fetchAll() }, awaiting: { try await $0.allItems(of: entity).map(item) })
    }
    public func fetch(_ key: Value) async throws -> Item? {
        try await owner.reading({ try self.fetch(key) }, awaiting: { try await $0.item(key, of: entity).map(item) })
    }
    public func fetch(_ query: ItemQuery) async throws -> [Item] {
        let checked = try query.checked(for: entity)
        return try await owner.reading(
            { try self.fetch(query) }, awaiting: { try await $0.items(matching: checked, of: entity).map(item) })
    }
    public func fetch(relatedTo key: Value, through relationship: String, sort: [SortKey] = [], limit: Int? = nil)
        async throws -> [Item]
    {
        try await fetch(query(relatedTo: key, through: relationship, sort: sort, limit: limit))
    }
    @discardableResult public func insert(_ item: Item) async throws -> Item {
        try await offload { try self.insert(item) }
    }
    @discardableResult public func insert(_ items: [Item]) async throws -> [Item] {
        try await offload { try self.insert(items) }
    }
    @discardableResult public func update(_ item: Item) async throws -> Item {
        try await offload { try self.update(item) }
    }
    @discardableResult public func update(_ items: [Item]) async throws -> [Item] {
        try await offload { try self.update(items) }
    }
    @discardableResult public func upsert(_ item: Item) async throws -> Item {
        try await offload { try self.upsert(item) }
    }
    @discardableResult public func upsert(_ items: [Item]) async throws -> [Item] {
        try await offload { try self.upsert(items) }
    }
    public func delete(_ key: Value, version: Int64? = nil) async throws {
        try await offload { try self.delete(key, version: version) }
    }
    public func delete(_ item: Item) async throws { try await offload { try self.delete(item) } }
    @discardableResult public func deleteAll() async throws -> Int { try await offload { try self.deleteAll() } }
}

extension TypedItems where Element: Sendable {
    public func count() async throws -> Int { try await items.count() }
    public func fetchAll() async throws -> [Element] { try await items.fetchAll().map(fromItem) }
    public func fetch(_ key: Value) async throws -> Element? { try await items.fetch(key).map(fromItem) }
    public func fetch(_ query: ItemQuery) async throws -> [Element] { try await items.fetch(query).map(fromItem) }
    public func fetch(relatedTo key: Value, through relationship: String, sort: [SortKey] = [], limit: Int? = nil)
        async throws -> [Element]
    {
        try await items.fetch(relatedTo: key, through: relationship, sort: sort, limit: limit).map(fromItem)
    }
    @discardableResult public func insert(_ element: Element) async throws -> Element {
        try await offload { try self.insert(element) }
    }
    @discardableResult public func insert(_ elements: [Element]) async throws -> [Element] {
        try await offload { try self.insert(elements) }
    }
    @discardableResult public func update(_ element: Element) async throws -> Element {
        try await offload { try self.update(element) }
    }
    @discardableResult public func update(_ elements: [Element]) async throws -> [Element] {
        try await offload { try self.update(elements) }
    }
    @discardableResult public func upsert(_ element: Element) async throws -> Element {
        try await offload { try self.upsert(element) }
    }
    @discardableResult public func upsert(_ elements: [Element]) async throws -> [Element] {
        try await offload { try self.upsert(elements) }
    }
    public func delete(_ element: Element) async throws { try await offload { try self.delete(element) } }
    public func delete(_ key: Value, version: Int64? = nil) async throws {
        try await offload { try self.delete(key, version: version) }
    }
    @discardableResult public func deleteAll() async throws -> Int { try await offload { try self.deleteAll() } }
}
