/// The items of one entity as values of a Swift type: `Codable` types whose properties are the
/// entity's attributes (by name, or through `CodingKeys`), or any type with an `ItemMapping`.
/// The calls and their rules are those of `EntityItems`; what they return is read back from
/// the store (versions, defaults). The async forms are for elements that are `Sendable`.
///
/// ```swift
/// struct Location: Codable { var locationId: String; var name: String; var createdAt: Date; var version: Int64? }
/// let locations = try store.items(Location.self)
/// let stored = try locations.insert(Location(locationId: "loc-1", name: "Café", createdAt: .now, version: nil))
/// ```
public struct TypedItems<Element>: Sendable {
    /// The same items, untyped.
    public let items: EntityItems
    let toItem: @Sendable (Element) throws -> Item
    let fromItem: @Sendable (Item) throws -> Element

    init(
        items: EntityItems, toItem: @escaping @Sendable (Element) throws -> Item,
        fromItem: @escaping @Sendable (Item) throws -> Element
    ) {
        self.items = items
        self.toItem = toItem
        self.fromItem = fromItem
    }

    @available(*, noasync, message: "await the async form")
    public func count() throws -> Int { try items.count() }

    /// Every stored item, in no particular order.
    @available(*, noasync, message: "await the async form")
    public func fetchAll() throws -> [Element] { try items.fetchAll().map(fromItem) }

    /// The item with `key` (its hash key, or `.pair(hash, range)`), or nil.
    @available(*, noasync, message: "await the async form")
    public func fetch(_ key: Value) throws -> Element? { try items.fetch(key).map(fromItem) }

    /// The items that match `query` (attributes by the entity's names), in its order.
    @available(*, noasync, message: "await the async form")
    public func fetch(_ query: ItemQuery) throws -> [Element] { try items.fetch(query).map(fromItem) }

    /// The items whose to-one `relationship` names the parent with `key`.
    @available(*, noasync, message: "await the async form")
    public func fetch(relatedTo key: Value, through relationship: String, sort: [SortKey] = [], limit: Int? = nil)
        throws -> [Element]
    {
        try items.fetch(relatedTo: key, through: relationship, sort: sort, limit: limit).map(fromItem)
    }

    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func insert(_ element: Element) throws -> Element { try insert([element])[0] }

    /// Adds new items at version 1, all or none.
    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func insert(_ elements: [Element]) throws -> [Element] {
        try items.insert(elements.map(toItem)).map(fromItem)
    }

    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func update(_ element: Element) throws -> Element { try update([element])[0] }

    /// Changes stored items (version + 1); one that carries a version must be based on the stored one.
    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func update(_ elements: [Element]) throws -> [Element] {
        try items.update(elements.map(toItem)).map(fromItem)
    }

    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func upsert(_ element: Element) throws -> Element { try upsert([element])[0] }

    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func upsert(_ elements: [Element]) throws -> [Element] {
        try items.upsert(elements.map(toItem)).map(fromItem)
    }

    /// Deletes the item if it is still at its version, with the entity's delete rules.
    @available(*, noasync, message: "await the async form")
    public func delete(_ element: Element) throws { try items.delete(toItem(element)) }

    @available(*, noasync, message: "await the async form")
    public func delete(_ key: Value, version: Int64? = nil) throws { try items.delete(key, version: version) }

    @available(*, noasync, message: "await the async form")
    @discardableResult
    public func deleteAll() throws -> Int { try items.deleteAll() }
}

extension ItemStore {
    /// The items of `entity` (by default the type's name) as values of `type`. The type's
    /// properties are checked against the entity's attributes here, naming both sides of a
    /// mismatch (`ItemError.mapping`): a property with no attribute, a type that cannot hold
    /// the attribute's values, a non-optional property for an attribute that may be null, or
    /// no property for the key or a required attribute.
    public func items<T: Codable>(_ type: T.Type, entity: String? = nil) throws -> TypedItems<T> {
        try typedItems(type, entity: entity, limit: nil)
    }

    /// The items of `entity` as values of `type`, at most `limit` of them: a write past it
    /// removes the oldest by the property `order` reads (`StorageLimit`), in its transaction.
    public func items<T: Codable, V: Comparable>(
        _ type: T.Type, entity: String? = nil, limit: Int, by order: KeyPath<T, V>
    ) throws -> TypedItems<T> {
        let name = entity ?? String(describing: type)
        let attribute = try TypeShape.property(readBy: order, entity: name)
        return try typedItems(type, entity: entity, limit: StorageLimit(count: limit, attribute: attribute))
    }

    private func typedItems<T: Codable>(_ type: T.Type, entity: String?, limit: StorageLimit?) throws -> TypedItems<T> {
        let name = entity ?? String(describing: type)
        let items = try self.items(name, limit: limit)
        try TypeShape(of: type, entity: name).check(against: items.entity, typeName: String(describing: type))
        return TypedItems(
            items: items, toItem: { try ItemEncoder.item(from: $0) }, fromItem: { try T(from: ItemDecoder(item: $0)) })
    }

    /// The items of `mapping.entity` as values of the mapping's type.
    public func items<M: ItemMapping>(mapping: M) throws -> TypedItems<M.Element> {
        TypedItems(
            items: try items(mapping.entity), toItem: { try mapping.item(from: $0) },
            fromItem: { try mapping.element(from: $0) })
    }
}
