import Foundation

/// An item's attributes in a write request: typed values, or the item's DynamoDB JSON text
/// already written from an entity's values (`DynamoItemCoding.itemText`). The write path sends
/// the text as it is: no dictionary is built, hashed and freed per item.
package enum ItemContent: Sendable, Codable {
    case attributes(DynamoItem)
    /// `{"name":{"S":"…"},…}`, as `DynamoItemCoding` writes it.
    case text([UInt8])

    /// The typed attributes, parsed from the text when the item is one.
    package func attributes() throws -> DynamoItem {
        switch self {
        case .attributes(let item): return item
        case .text(let bytes): return try JSONDecoder().decode(DynamoItem.self, from: Data(bytes))
        }
    }

    package init(from decoder: any Decoder) throws {
        self = .attributes(try DynamoItem(from: decoder))
    }

    package func encode(to encoder: any Encoder) throws {
        try attributes().encode(to: encoder)
    }
}
