/// The calls of `TypedItems`, awaited: `EntityItems`'s async calls, the elements converted
/// before and after.
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
        try await insert([element])[0]
    }
    @discardableResult public func insert(_ elements: [Element]) async throws -> [Element] {
        try await items.insert(elements.map(toItem)).map(fromItem)
    }
    @discardableResult public func update(_ element: Element) async throws -> Element {
        try await update([element])[0]
    }
    @discardableResult public func update(_ elements: [Element]) async throws -> [Element] {
        try await items.update(elements.map(toItem)).map(fromItem)
    }
    @discardableResult public func upsert(_ element: Element) async throws -> Element {
        try await upsert([element])[0]
    }
    @discardableResult public func upsert(_ elements: [Element]) async throws -> [Element] {
        try await items.upsert(elements.map(toItem)).map(fromItem)
    }
    public func delete(_ element: Element) async throws { try await items.delete(toItem(element)) }
    public func delete(_ key: Value, version: Int64? = nil) async throws {
        try await items.delete(key, version: version)
    }
    @discardableResult public func deleteAll() async throws -> Int { try await items.deleteAll() }
}
