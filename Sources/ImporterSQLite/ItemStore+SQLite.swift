import ImporterCore

extension ItemStore {
    /// Opens the SQLite store for `model`: creates missing tables, and refuses a store that
    /// holds another model or version (`StoreError`, `.modelMismatch`).
    @available(*, noasync, message: "use `try await ItemStore.open(store:model:)`")
    public convenience init(store: SQLiteStore, model: Model) throws {
        try self.init(store: store as any Store & ItemAccess, model: model)
    }

    /// `init(store:model:)`, awaited.
    public static func open(store: SQLiteStore, model: Model) async throws -> ItemStore {
        try await open(store: store as any Store & ItemAccess, model: model)
    }
}
