/// The properties a `Decodable` type reads from an item, with their Swift types: found by
/// decoding the type once from placeholder values, so a typed store can compare them with the
/// entity's attributes when it is opened rather than on the first fetch.
struct TypeShape {
    struct Property {
        let name: String
        let type: Any.Type
        let optional: Bool
    }

    let properties: [Property]

    /// Reads `type`'s shape; `ItemError.mapping` when its decoding cannot be followed (a
    /// property of a type no attribute holds, a nested object, or checks of its own that
    /// placeholders fail: give such a type an `ItemMapping`).
    init<T: Decodable>(of type: T.Type, entity: String) throws {
        properties = try Self.decode(type, entity: entity, marked: false).1
    }

    /// The property (its coding key) that `keyPath` reads: the type is decoded once with a
    /// different value in every property, and the key path's value names the one it read.
    static func property<T: Decodable, V>(readBy keyPath: KeyPath<T, V>, entity: String) throws -> String {
        let (value, properties) = try decode(T.self, entity: entity, marked: true)
        let read = value[keyPath: keyPath] as? AnyHashable
        for (index, property) in properties.enumerated() {
            if let stored = StoredType(property.type), stored != .bool, read == stored.marker(index + 1) {
                return property.name
            }
        }
        throw ItemError.mapping(
            type: "\(T.self)", entity: entity,
            message: "the order of a storage limit must be a stored property of a type other than Bool, not \(keyPath)")
    }

    private static func decode<T: Decodable>(_ type: T.Type, entity: String, marked: Bool) throws -> (T, [Property]) {
        let recorder = Recorder(marked: marked)
        do {
            return (try T(from: Probe(recorder: recorder)), recorder.properties)
        } catch let error as Unsupported {
            throw ItemError.mapping(
                type: "\(T.self)", entity: entity,
                message: "property \(error.property) is a \(error.type), which no attribute type holds")
        } catch {
            throw ItemError.mapping(
                type: "\(T.self)", entity: entity,
                message: "its init(from:) cannot be read property by property (\(error)); give it an ItemMapping")
        }
    }

    private final class Recorder {
        /// Whether each property gets a value of its own (`StoredType.marker`), not the placeholder.
        let marked: Bool
        var properties: [Property] = []
        init(marked: Bool) { self.marked = marked }
    }

    private struct Unsupported: Error {
        let property: String
        let type: Any.Type
    }

    private struct Probe: Decoder {
        let recorder: Recorder
        var codingPath: [CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Container<Key>(recorder: recorder))
        }
        func unkeyedContainer() throws -> UnkeyedDecodingContainer { throw ItemCoding.flat([]) }
        func singleValueContainer() throws -> SingleValueDecodingContainer { throw ItemCoding.flat([]) }
    }

    private struct Container<Key: CodingKey>: ForwardingDecodingContainer {
        let recorder: Recorder
        var codingPath: [CodingKey] { [] }
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }

        func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key, optional: Bool) throws -> T? {
            recorder.properties.append(Property(name: key.stringValue, type: type, optional: optional))
            guard let stored = StoredType(type) else { throw Unsupported(property: key.stringValue, type: type) }
            return (recorder.marked ? stored.marker(recorder.properties.count).base : stored.placeholder) as? T
        }
    }

    /// Checks that every property names an attribute of `entity` whose values it can hold, and
    /// that the attributes an item needs have a property.
    func check(against entity: Entity, typeName: String) throws {
        func mismatch(_ message: String) -> ItemError {
            .mapping(type: typeName, entity: entity.name, message: message)
        }
        for property in properties {
            guard let attribute = entity.attribute(named: property.name) else {
                throw mismatch(
                    "property \(property.name) names no attribute of \(entity.name); rename it or map it with CodingKeys"
                )
            }
            let described = "\(entity.name).\(attribute.name) (\(attribute.type.rawValue))"
            guard let stored = StoredType(property.type), stored.holds(attribute.type) else {
                throw mismatch("property \(property.name) is a \(property.type), which cannot hold \(described)")
            }
            let alwaysSet =
                entity.keyAttributes.contains(attribute.name) || attribute.name == entity.versionAttribute
                || attribute.required || attribute.defaultValue != nil
            if !property.optional && !alwaysSet {
                throw mismatch(
                    "property \(property.name) is not optional, but \(described) may be null; make it \(property.type)?"
                )
            }
        }
        let names = Set(properties.map(\.name))
        for attribute in entity.attributes where !names.contains(attribute.name) {
            if entity.keyAttributes.contains(attribute.name) {
                throw mismatch("no property holds the key attribute \(entity.name).\(attribute.name)")
            }
            if attribute.required && attribute.defaultValue == nil {
                throw mismatch("no property holds \(entity.name).\(attribute.name), which is required")
            }
        }
    }
}
