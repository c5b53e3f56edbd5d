import Foundation

/// At most `count` items of an entity (a cache of recent items, as CoreDataStore's limit): a
/// write that leaves more removes the oldest by `attribute` (lowest first, nulls before any
/// value, ties by key) in the same transaction, with the entity's delete rules. An item written
/// older than every kept one is removed at once.
public struct StorageLimit: Sendable, Equatable {
    public let count: Int
    public let attribute: String

    public init(count: Int, attribute: String) {
        self.count = count
        self.attribute = attribute
    }

    /// Whether `a` comes before `b` in the limit's order (values of one attribute, so of one type).
    static func precedes(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return false
        case (.null, _): return true
        case (_, .null): return false
        case (.integer(let x), .integer(let y)), (.date(let x), .date(let y)): return x < y
        case (.double(let x), .double(let y)): return x < y
        case (.decimal(let x), .decimal(let y)):
            let posix = Locale(identifier: "en_US_POSIX")
            return (Decimal(string: x, locale: posix) ?? 0) < (Decimal(string: y, locale: posix) ?? 0)
        case (.boolean(let x), .boolean(let y)): return !x && y
        case (.string(let x), .string(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.binary(let x), .binary(let y)): return x.lexicographicallyPrecedes(y)
        default: return a.description < b.description
        }
    }
}
