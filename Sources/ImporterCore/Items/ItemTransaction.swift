/// The items of an open transaction (`ItemStore.transaction(_:)`): every call made through it
/// joins the transaction, and sees its writes. Valid only inside the transaction's body.
public struct ItemTransaction: Sendable {
    private let view: ItemStore
    private let scope: TransactionScope

    init(view: ItemStore, scope: TransactionScope) {
        self.view = view
        self.scope = scope
    }

    /// The items of one entity, in this transaction.
    public func items(_ entityName: String, limit: StorageLimit? = nil) throws -> EntityItems {
        try view.items(entityName, limit: limit)
    }

    /// The items of `entity` as values of `type`, in this transaction (`ItemStore.items(_:entity:)`).
    public func items<T: Codable>(_ type: T.Type, entity: String? = nil) throws -> TypedItems<T> {
        try view.items(type, entity: entity)
    }

    /// The items of `mapping.entity` as values of the mapping's type, in this transaction.
    public func items<M: ItemMapping>(mapping: M) throws -> TypedItems<M.Element> {
        try view.items(mapping: mapping)
    }
}
