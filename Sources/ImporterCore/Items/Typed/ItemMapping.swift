/// How a Swift type that does not match an entity one-to-one becomes an item and back, for a
/// typed store (`ItemStore.items(mapping:)`).
public protocol ItemMapping: Sendable {
    associatedtype Element
    /// The entity the values are stored as.
    var entity: String { get }
    func item(from element: Element) throws -> Item
    func element(from item: Item) throws -> Element
}
