/// One stored item of an entity, by attribute name (the library's view of a row).
public struct Item: Equatable, Sendable, CustomStringConvertible {
    public var values: [String: Value]

    public init(_ values: [String: Value]) {
        self.values = values
    }

    /// The attribute's value; `.null` when it has none.
    public subscript(attribute: String) -> Value {
        get { values[attribute] ?? .null }
        set { values[attribute] = newValue }
    }

    public var description: String {
        "{" + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    }
}
