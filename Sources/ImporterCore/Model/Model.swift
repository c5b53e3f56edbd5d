/// One version of an entity model (Core Data's `.xcdatamodel`).
public struct Model: Sendable {
    public let name: String
    public let version: Int
    /// Entities in model-file order.
    public let entities: [Entity]
    /// SHA-256 of the model's canonical description: a store records it to notice edited models.
    public let checksum: String
    /// The file this version was loaded from.
    public let file: String

    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }

    /// Entity names with every to-one destination before the entities that point at it.
    public var parentsFirstOrder: [String] {
        var ordered: [String] = []
        var visiting = Set<String>()
        func visit(_ entity: Entity) {
            guard !ordered.contains(entity.name), visiting.insert(entity.name).inserted else { return }
            for relationship in entity.toOneRelationships {
                if let parent = self.entity(named: relationship.destination) { visit(parent) }
            }
            ordered.append(entity.name)
        }
        entities.forEach(visit)
        return ordered
    }
}

/// Every version of a model found in a directory, oldest first.
public struct VersionedModel: Sendable {
    public let versions: [Model]
    /// What the model files declare that the importer does not use (docs/coredata.md), to be shown.
    public let warnings: [ModelWarning]

    /// The versions, oldest first.
    public init(versions: [Model]) {
        self.init(versions: versions, warnings: [])
    }

    public init(versions: [Model], warnings: [ModelWarning]) {
        self.versions = versions.sorted { $0.version < $1.version }
        self.warnings = warnings
    }

    public var newest: Model { versions.last! }

    public func version(_ number: Int) -> Model? {
        versions.first { $0.version == number }
    }
}
