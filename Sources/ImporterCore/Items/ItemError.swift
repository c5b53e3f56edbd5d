/// Why a library call on an `EntityItems` failed. Nothing was written when one is thrown.
public enum ItemError: Error, Equatable, CustomStringConvertible {
    case unknownEntity(String)
    case unknownAttribute(entity: String, attribute: String)
    /// A value the model refuses (type, required, range, pattern, reference, …).
    case invalid(entity: String, field: String?, reason: RejectReason, message: String)
    /// `insert` of a key that is already stored.
    case duplicate(entity: String, key: Value)
    /// `update` or `delete` of a key that is not stored.
    case notFound(entity: String, key: Value)
    /// The item's version is not the stored one: someone else changed it since it was read.
    case conflict(entity: String, key: Value, stored: Int64, incoming: Int64)
    /// A delete refused by a `deny` rule (or a `nullify` of a required key).
    case denied(entity: String, key: Value, message: String)
    /// A Swift type that does not fit the entity of a typed store (`ItemStore.items(_:entity:)`).
    case mapping(type: String, entity: String, message: String)

    public var description: String {
        switch self {
        case .unknownEntity(let name): return "'\(name)' is not an entity of the model"
        case .unknownAttribute(let entity, let attribute): return "\(entity) has no attribute '\(attribute)'"
        case .invalid(let entity, _, _, let message): return "\(entity): \(message)"
        case .duplicate(let entity, let key): return "\(entity) '\(key)' is already stored"
        case .notFound(let entity, let key): return "\(entity) '\(key)' is not stored"
        case .conflict(let entity, let key, let stored, let incoming):
            return
                "\(entity) '\(key)' is stored at version \(stored), but the item is based on version \(incoming); fetch it again"
        case .denied(let entity, let key, let message): return "\(entity) '\(key)': \(message)"
        case .mapping(let type, let entity, let message): return "\(type) cannot be stored as \(entity): \(message)"
        }
    }
}
