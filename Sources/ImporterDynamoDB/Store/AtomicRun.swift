import ImporterCore

/// What an atomic run on DynamoDB (a library call, `ItemStore`) has read and changed, held in
/// memory until it commits: the run's own reads see its changes, and the commit sends them as
/// one TransactWriteItems (`DynamoDBStore+AtomicRun`), each conditional on the item being as the
/// run first read it, with a ConditionCheck on every item it read and left alone.
struct AtomicRun: Sendable {
    /// An item the run touched: as it was stored when the run first read it, and the run's change.
    struct Touched: Sendable {
        let entity: Entity
        let key: Value
        /// nil: not stored.
        let stored: [Value]?
        var change: Change?

        /// The item as the run sees it now; nil when it is not stored or the run deleted it.
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

    /// Notes how an item is stored, when the run reads it for the first time.
    mutating func read(_ key: Value, of entity: Entity, stored: [Value]?) {
        guard item(key, of: entity) == nil else { return }
        positions[entity.name, default: [:]][key] = touched.count
        touched.append(Touched(entity: entity, key: key, stored: stored, change: nil))
    }

    /// Changes an item the run has read.
    mutating func change(_ key: Value, of entity: Entity, to change: Change) {
        guard let position = positions[entity.name]?[key] else {
            preconditionFailure("an atomic run changes only items it has read")
        }
        touched[position].change = change
    }

    /// The entity's items the run changed, in the order first touched.
    func changes(of entity: Entity) -> [Touched] {
        touched.filter { $0.entity.name == entity.name && $0.change != nil }
    }

    /// Whether the run changed anything (a run that only read commits nothing).
    var hasChanges: Bool { touched.contains { $0.change != nil } }
}
