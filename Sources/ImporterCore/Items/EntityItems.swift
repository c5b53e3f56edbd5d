/// The items of one entity in an `ItemStore`. Keys are hash key values; an `Item` names its
/// attributes as the model does, its version attribute included.
///
/// Every call is async and holds no thread of Swift concurrency's pool while the store works;
/// each has a synchronous form, for code outside async contexts, that waits for it.
public struct EntityItems: Sendable {
    public let entity: Entity
    let owner: ItemStore
    /// At most this many items, the oldest removed by writes past it.
    public let limit: StorageLimit?

    /// How many items are stored.
    public func count() async throws -> Int {
        try await owner.reading { try await $0.itemCount(of: entity) }
    }

    /// Every stored item, in no particular order.
    public func fetchAll() async throws -> [Item] {
        try await owner.reading { try await $0.allItems(of: entity) }.map(item)
    }

    /// The item with `key`, or nil.
    public func fetch(_ key: Value) async throws -> Item? {
        try await owner.reading { try await $0.item(key, of: entity) }.map(item)
    }

    /// The items that match `query`, in its order. `ItemError.unknownAttribute` or `.invalid`
    /// (a value of another type than its attribute's) before anything is read.
    public func fetch(_ query: ItemQuery) async throws -> [Item] {
        let checked = try query.checked(for: entity)
        return try await owner.reading { try await $0.items(matching: checked, of: entity) }.map(item)
    }

    /// The items whose `relationship` (a to-one relationship of this entity) names the parent
    /// with `key`: a location's check-ins are `checkins.fetch(relatedTo: key, through: "location")`.
    public func fetch(relatedTo key: Value, through relationship: String, sort: [SortKey] = [], limit: Int? = nil)
        async throws -> [Item]
    {
        try await fetch(query(relatedTo: key, through: relationship, sort: sort, limit: limit))
    }

    /// The query of `fetch(relatedTo:through:sort:limit:)`.
    func query(relatedTo key: Value, through relationship: String, sort: [SortKey], limit: Int?) throws -> ItemQuery {
        guard let link = entity.toOneRelationships.first(where: { $0.name == relationship }), !link.keys.isEmpty else {
            throw ItemError.unknownAttribute(entity: entity.name, attribute: relationship)
        }
        var parts = [key]
        if link.keys.count == 2, case .pair(let hash, let range) = key { parts = [hash, range] }
        guard parts.count == link.keys.count else {
            throw ItemError.invalid(
                entity: entity.name, field: relationship, reason: .type,
                message:
                    "\(relationship) is keyed by \(link.keys.joined(separator: ", ")); give a key of \(link.keys.count) parts"
            )
        }
        return ItemQuery(.and(zip(link.keys, parts).map { .equals($0, $1) }), sort: sort, limit: limit)
    }

    /// Adds a new item at version 1. Throws `ItemError.duplicate` if the key is stored.
    @discardableResult
    public func insert(_ item: Item) async throws -> Item { try await insert([item])[0] }

    /// Adds new items, all or none.
    @discardableResult
    public func insert(_ items: [Item]) async throws -> [Item] { try await write(items, mode: .insert) }

    /// Changes stored items (version + 1). An item that carries a version must be based on the
    /// stored one (`ItemError.conflict`); one without is written blindly. `ItemError.notFound`
    /// if a key is not stored.
    @discardableResult
    public func update(_ item: Item) async throws -> Item { try await update([item])[0] }

    @discardableResult
    public func update(_ items: [Item]) async throws -> [Item] {
        try await write(items, mode: .upsert, mustExist: true)
    }

    /// Inserts the items that are new and updates the others, all or none.
    @discardableResult
    public func upsert(_ item: Item) async throws -> Item { try await upsert([item])[0] }

    @discardableResult
    public func upsert(_ items: [Item]) async throws -> [Item] { try await write(items, mode: .upsert) }

    /// Deletes the item with `key` and applies its relationships' delete rules. With `version`,
    /// only if the item is still at that version (`ItemError.conflict`).
    public func delete(_ key: Value, version: Int64? = nil) async throws {
        try await owner.inTransaction { store in
            guard let stored = try await store.item(key, of: entity) else {
                throw ItemError.notFound(entity: entity.name, key: key)
            }
            let storedVersion = stored[entity.versionIndex].integerValue ?? 0
            if let version, version != storedVersion {
                throw ItemError.conflict(entity: entity.name, key: key, stored: storedVersion, incoming: version)
            }
            try await delete([stored], in: store)
        }
    }

    /// Deletes `item` if it is still at its version (or whatever its version, when it has none).
    public func delete(_ item: Item) async throws {
        try await delete(
            entity.key(of: entity.attributes.map { item[$0.name] }), version: item[entity.versionAttribute].integerValue
        )
    }

    /// Deletes every item (and applies the delete rules); all or none. Returns how many.
    @discardableResult
    public func deleteAll() async throws -> Int {
        try await owner.inTransaction { store in
            let all = try await store.allItems(of: entity)
            try await delete(all, in: store)
            return all.count
        }
    }

    // MARK: Internals

    private func delete(_ items: [[Value]], in store: any ItemAccess) async throws {
        let plan = try await DeletePlan.make(model: owner.model, access: store, requested: [entity.name: items])
        if let denial = plan.denials.first {
            throw ItemError.denied(entity: denial.entity, key: denial.key, message: denial.message)
        }
        if let changed = try await plan.apply(to: store, model: owner.model).first {
            throw ItemError.denied(entity: changed.entity, key: changed.key, message: changed.message)
        }
    }

    private func write(_ items: [Item], mode: WriteConfig.Mode, mustExist: Bool = false) async throws -> [Item] {
        let records = try items.map {
            PreparedRecord(inputIndex: 0, line: 0, byteOffset: 0, raw: [], values: try validate($0))
        }
        var seen = Set<Value>()
        for record in records where !seen.insert(entity.key(of: record.values)).inserted {
            throw ItemError.invalid(
                entity: entity.name, field: entity.hashKey, reason: .duplicate,
                message: "\(entity.describe(key: entity.key(of: record.values))) appears twice in one call")
        }
        var config = WriteConfig()
        config.mode = mode
        var rules = VersionRules(entity: entity, write: config)
        rules.strictVersions = true  // an item based on an older version is a conflict, whatever its content
        return try await owner.inTransaction { store in
            for record in records {
                let key = entity.key(of: record.values)
                if mustExist, try await store.item(key, of: entity) == nil {
                    throw ItemError.notFound(entity: entity.name, key: key)
                }
                try await checkReferences(record.values, in: store)
            }
            let outcomes = try await store.writeItems(records, of: entity, rules: rules)
            for (record, outcome) in zip(records, outcomes) {
                if case .rejected(let rejection) = outcome.result {
                    throw try await error(rejection, record.values, in: store)
                }
            }
            var written: [Item] = []
            for record in records {
                written.append(item(try await store.item(entity.key(of: record.values), of: entity)!))
            }
            if let limit { try await trim(to: limit, in: store) }
            return written
        }
    }

    /// Deletes the oldest items past `limit`, with the delete rules: the store selects them
    /// (on SQLite one ordered SELECT with a LIMIT), in the open transaction.
    private func trim(to limit: StorageLimit, in store: any ItemAccess) async throws {
        let count = try await store.itemCount(of: entity)
        guard count > limit.count else { return }
        let oldest = try await store.items(
            matching: ItemQuery(sort: [.ascending(limit.attribute)], limit: count - limit.count), of: entity)
        try await delete(oldest, in: store)
    }

    /// The item's values by attribute position, checked and typed as `importer run` would.
    private func validate(_ item: Item) throws -> [Value] {
        for name in item.values.keys where entity.attributeIndex[name] == nil {
            throw ItemError.unknownAttribute(entity: entity.name, attribute: name)
        }
        let fields = entity.attributes.map { Self.field(item[$0.name]) }
        switch RecordValidator(entity: entity, dateFormat: .iso8601).validate(fields) {
        case .success(let values): return values
        case .failure(let rejection):
            throw ItemError.invalid(
                entity: entity.name, field: rejection.field, reason: rejection.reason, message: rejection.message)
        }
    }

    private func checkReferences(_ values: [Value], in store: any ItemAccess) async throws {
        for relationship in entity.toOneRelationships {
            guard !relationship.keys.isEmpty, let parent = owner.model.entity(named: relationship.destination) else {
                continue
            }
            let keyName = relationship.keys.joined(separator: ", ")
            let key = Value.key(values, at: relationship.keys.map { entity.attributeIndex[$0]! })
            if !key.isNull, try await store.item(key, of: parent) == nil {
                throw ItemError.invalid(
                    entity: entity.name, field: keyName, reason: .reference,
                    message: "\(keyName): '\(key)' names no stored \(parent.name)")
            }
        }
    }

    private func error(_ rejection: Rejection, _ values: [Value], in store: any ItemAccess) async throws -> ItemError {
        let key = entity.key(of: values)
        switch rejection.reason {
        case .duplicate: return .duplicate(entity: entity.name, key: key)
        case .conflict:
            let stored = try await store.item(key, of: entity)?[entity.versionIndex].integerValue ?? 0
            return .conflict(
                entity: entity.name, key: key, stored: stored, incoming: values[entity.versionIndex].integerValue ?? 0)
        default:
            return .invalid(
                entity: entity.name, field: rejection.field, reason: rejection.reason, message: rejection.message)
        }
    }

    /// An item of the values by attribute position a store reads.
    func item(_ values: [Value]) -> Item {
        var item = Item([:])
        for (attribute, value) in zip(entity.attributes, values) where !value.isNull { item[attribute.name] = value }
        return item
    }

    /// A typed value as the validator's input, so library calls get exactly the pipeline's checks.
    private static func field(_ value: Value) -> FieldValue {
        switch value {
        case .null: return .null
        case .string(let text): return .text(text)
        case .integer(let number): return .number(String(number))
        case .double(let number): return .number(String(number))
        case .decimal(let text): return .number(text)
        case .date(let millis): return .text(ISO8601.format(millis: millis))
        case .boolean(let flag): return .bool(flag)
        case .binary(let bytes): return .text(Base64.encode(bytes))
        case .pair: return .text(value.description)
        }
    }
}
