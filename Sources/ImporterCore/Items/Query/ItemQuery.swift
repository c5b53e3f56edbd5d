/// Which items of an entity to fetch, in which order and how many: a value, built once and run
/// by any store (`StoreReading.items(matching:of:_:)`) — as parameterised SQL on SQLite, never
/// with values spliced into the SQL text.
///
/// ```swift
/// let query = ItemQuery(.and([.equals("locationId", .string("loc-1")), .atLeast("rating", .integer(4))]),
///                       sort: [.descending("checkinTime")], limit: 10)
/// let best = try checkins.fetch(query)
/// ```
public struct ItemQuery: Sendable, Equatable {
    public var filter: ItemFilter?
    /// The order of the items; ties (and no order) by key.
    public var sort: [SortKey]
    public var limit: Int?

    public init(_ filter: ItemFilter? = nil, sort: [SortKey] = [], limit: Int? = nil) {
        self.filter = filter
        self.sort = sort
        self.limit = limit
    }

    /// Every attribute the query names.
    var attributes: [String] { (filter?.attributes ?? []) + sort.map(\.attribute) }
}

/// A condition on an item's attributes. Comparisons follow the attribute's type (numbers as
/// numbers, dates in time, text by its bytes); a null attribute satisfies only `isNull` (and
/// `equals(_, .null)`).
public indirect enum ItemFilter: Sendable, Equatable {
    case equals(String, Value)
    case below(String, Value)
    case atMost(String, Value)
    case above(String, Value)
    case atLeast(String, Value)
    /// The attribute is one of the values.
    case isIn(String, [Value])
    case isNull(String)
    case isNotNull(String)
    /// Every one of the filters (true when empty).
    case and([ItemFilter])

    /// Every attribute the filter names.
    public var attributes: [String] {
        switch self {
        case .equals(let name, _), .below(let name, _), .atMost(let name, _), .above(let name, _),
            .atLeast(let name, _),
            .isIn(let name, _), .isNull(let name), .isNotNull(let name):
            return [name]
        case .and(let filters): return filters.flatMap(\.attributes)
        }
    }
}

/// An attribute to sort by, and its direction. Nulls come first ascending, last descending.
public struct SortKey: Sendable, Equatable {
    public let attribute: String
    public let ascending: Bool

    public static func ascending(_ attribute: String) -> SortKey { SortKey(attribute: attribute, ascending: true) }
    public static func descending(_ attribute: String) -> SortKey { SortKey(attribute: attribute, ascending: false) }
}
