/// An item's identity across the stages of a run: its entity's name and its key's text. What
/// the key stage and the write stage hand the delete phases (records rejected, whose items
/// stay). By text: a rejected record's key may have been read before its types were checked
/// (`"7"` for the `int32` 7), and it names the same item.
struct EntityKey: Hashable, Sendable {
    let entity: String
    let key: String

    init(_ entity: Entity, _ key: Value) {
        self.init(entity: entity.name, key: key)
    }

    init(entity: String, key: Value) {
        self.entity = entity
        self.key = key.description
    }
}
