import ImporterCore

/// What a library transaction on DynamoDB (`ItemAccess`: an `ItemStore` call) has read and
/// changed, held in memory until it commits: its own reads see its changes, and the commit sends them as
/// one TransactWriteItems (`DynamoDBStore+OpenTransaction`), each conditional on the item being as the
/// transaction first read it, with a ConditionCheck on every item it read and left alone.
struct OpenTransaction: Sendable {
    /// An item the transaction touched: as stored when it first read it, and its change.
    struct Touched: Sendable {
        let entity: Entity
        let key: Value
        /// nil: not stored.
        let stored: [Value]?
        var change: Change?

        /// The item as the run sees it now; nil when it is not stored or the transaction deleted it.
        var current: [Value]? {
            switch change {
            case .put(let values): values
            case .delete: nil
            case nil: stored
            }
        }
    }

    enum Change: Sendable {
        case put([Value])
        case delete
    }

    /// In the order first touched, so the transaction's actions (and its cancellation reasons) have a fixed order.
    private(set) var touched: [Touched] = []
    private var positions: [String: [Value: Int]] = [:]

    func item(_ key: Value, of entity: Entity) -> Touched? {
        positions[entity.name]?[key].map { touched[$0] }
    }

    /// Notes how an item is stored, when the transaction reads it for the first time.
    mutating func read(_ key: Value, of entity: Entity, stored: [Value]?) {
        guard item(key, of: entity) == nil else { return }
        positions[entity.name, default: [:]][key] = touched.count
        touched.append(Touched(entity: entity, key: key, stored: stored, change: nil))
    }

    /// Changes an item the transaction has read.
    mutating func change(_ key: Value, of entity: Entity, to change: Change) {
        guard let position = positions[entity.name]?[key] else {
            preconditionFailure("a transaction changes only items it has read")
        }
        touched[position].change = change
    }

    /// The entity's items the transaction changed, in the order first touched.
    func changes(of entity: Entity) -> [Touched] {
        touched.filter { $0.entity.name == entity.name && $0.change != nil }
    }

    /// Whether the transaction changed anything (one that only read commits nothing).
    var hasChanges: Bool { touched.contains { $0.change != nil } }
}
