import ImporterCore

extension ItemStore {
    /// Opens the DynamoDB tables of `model`: creates missing tables, and refuses a store that
    /// holds another model or version (`StoreError`, `.modelMismatch`).
    @available(*, noasync, message: "use `try await ItemStore.open(store:model:)`")
    public convenience init(store: DynamoDBStore, model: Model) throws {
        try self.init(store: store as any Store & ItemAccess, model: model)
    }

    /// `init(store:model:)`, awaited.
    public static func open(store: DynamoDBStore, model: Model) async throws -> ItemStore {
        try await open(store: store as any Store & ItemAccess, model: model)
    }
}
