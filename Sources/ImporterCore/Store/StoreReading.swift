/// The reads the library API makes. On the store itself they see the writes of its open
/// transaction; on a reader of `ConcurrentReading`, the last commit.
package protocol ItemQuerying {
    /// How many items of `entity` are stored.
    func count(of entity: Entity) throws -> Int

    /// The stored item with `key` (values by attribute position), or nil.
    func fetch(_ key: Value, of entity: Entity) throws -> [Value]?

    /// Calls `body` with every stored item of `entity` (values by attribute position), in no
    /// particular order; `body` must not write.
    func scan(_ entity: Entity, _ body: ([Value]) throws -> Void) throws

    /// Calls `body` with the items of `entity` that match `query` (checked for the entity), in
    /// its order and up to its limit. Stores that cannot select in place read every item.
    func items(matching query: ItemQuery, of entity: Entity, _ body: ([Value]) throws -> Void) throws
}

/// A store whose reads can run beside its writes and beside each other: SQLite in WAL mode,
/// one writer and readers on connections of their own.
package protocol ConcurrentReading: AnyObject, Sendable {
    /// Runs `body` with a reader that no other thread uses meanwhile; each of its reads sees
    /// the store as of the last commit, never a write in progress.
    func withReader<T>(_ body: (any ItemQuerying) throws -> T) throws -> T
}

/// Reads of stored items: reference checks, exports, sync's scan, the library API.
package protocol StoreReading: ItemQuerying, AnyObject, Sendable {
    /// Whether an item with `key` is stored. Safe to call from another thread than `write`.
    func contains(_ key: Value, in entity: Entity) throws -> Bool

    /// Runs `body`, whose `contains` calls read one snapshot of the store (SQLite: one read
    /// transaction, where each call alone takes the file's locks). Stores without snapshots
    /// just run it.
    func lookingUp<T>(_ body: () -> T) -> T

    /// `scan` for exports: every stored item as a `StoredRow` read in place, valid only during
    /// `body`. Stores without an in-place reader get `ValuesRow`s of `scan`.
    func scanRows(_ entity: Entity, _ body: (any StoredRow) throws -> Void) throws

    /// Runs `body` on one consistent view of every entity (SQLite: one read transaction), so an
    /// export sees no write that happens meanwhile. Stores without snapshots just run it.
    func readingSnapshot<T>(_ body: () throws -> T) throws -> T
}

extension StoreReading {
    package func readingSnapshot<T>(_ body: () throws -> T) throws -> T { try body() }
    package func lookingUp<T>(_ body: () -> T) -> T { body() }
    package func scanRows(_ entity: Entity, _ body: (any StoredRow) throws -> Void) throws {
        try scan(entity) { try body(ValuesRow($0)) }
    }

    /// Items stored per entity, in model order.
    package func counts(for model: Model) throws -> [(entity: String, count: Int)] {
        try model.entities.map { ($0.name, try count(of: $0)) }
    }
}
