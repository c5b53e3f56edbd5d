import ImporterAWS
import ImporterCore

/// The items of one entity as the store's open transaction sees them: the pages read from the
/// table with the items it changed left out, then those items as it changed them, its deletions
/// left out. Outside a transaction, the items as read.
struct TransactionView {
    private let entity: Entity
    private let coding: DynamoItemCoding
    private let changed: [OpenTransaction.Touched]
    private let changedKeys: Set<Value>

    init(_ store: DynamoDBStore, _ entity: Entity) throws {
        self.entity = entity
        coding = try store.coding(entity)
        changed = store.changesInTransaction(of: entity)
        changedKeys = Set(changed.map(\.key))
    }

    /// Calls `body` with the page's items (values by attribute position) that the transaction left alone.
    func items(of page: DynamoDB.ItemsPage, _ body: ([Value]) throws -> Void) throws {
        for item in page.items ?? [] {
            let values = try coding.decode(item)
            if changedKeys.isEmpty || !changedKeys.contains(entity.key(of: values)) { try body(values) }
        }
    }

    /// Calls `body` with the items the transaction changed, as it changed them; after every page.
    func itemsChanged(_ body: ([Value]) throws -> Void) rethrows {
        for item in changed { if let values = item.current { try body(values) } }
    }
}
