/// The synchronous forms of the calls, for code outside async contexts (a command-line tool, a
/// test, a thread of its own): each runs the async call and waits for it, with the calling
/// thread blocked (docs/library.md#threads-and-tasks). From async code, await the call instead.
extension EntityItems {
    @available(*, noasync, message: "await the async form")
    public func count() throws -> Int { try owner.waiting(read: true) { try await self.count() } }

    @available(*, noasync, message: "await the async form")
    public func fetchAll() throws -> [Item] { try owner.waiting(read: true) { try await self.fetchAll() } }

    @available(*, noasync, message: "await the async form")
    public func fetch(_ key: Value) throws -> Item? { try owner.waiting(read: true) { try await self.fetch(key) } }

    @available(*, noasync, message: "await the async form")
    public func fetch(_ query: ItemQuery) throws -> [Item] {
        try owner.waiting(read: true) { try await self.fetch(query) }
    }

    @available(*, noasync, message: "await the async form")
    public func fetch(relatedTo key: Value, through relationship: String, sort: [SortKey] = [], limit: Int? = nil)
        throws -> [Item]
    {
        try fetch(query(relatedTo: key, through: relationship, sort: sort, limit: limit))
    }

    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func insert(_ item: Item) throws -> Item { try insert([item])[0] }

    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func insert(_ items: [Item]) throws -> [Item] { try owner.waiting { try await self.insert(items) } }

    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func update(_ item: Item) throws -> Item { try update([item])[0] }

    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func update(_ items: [Item]) throws -> [Item] { try owner.waiting { try await self.update(items) } }

    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func upsert(_ item: Item) throws -> Item { try upsert([item])[0] }

    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func upsert(_ items: [Item]) throws -> [Item] { try owner.waiting { try await self.upsert(items) } }

    @available(*, noasync, message: "await the async form")
    public func delete(_ key: Value, version: Int64? = nil) throws {
        try owner.waiting { try await self.delete(key, version: version) }
    }

    @available(*, noasync, message: "await the async form")
    public func delete(_ item: Item) throws { try owner.waiting { try await self.delete(item) } }

    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func deleteAll() throws -> Int { try owner.waiting { try await self.deleteAll() } }
}
