/// What an input of a document source is in its documents (docs/documents.md): the root, which
/// reads the file, or a child node, whose records are the elements of an array and take their
/// parent's key.
package struct DocumentInput: Sendable {
    package let shape: DocumentShape
    /// The node of `shape` whose records this input takes; 0 is the root.
    package let node: Int
    /// The root: how many inputs (itself and its children) read the file together.
    package var groupSize = 1
    /// What an invalid element costs its document (the source's `documents`).
    package var policy = DocumentPolicy.whole
    /// A child: the attributes filled from its parent's key (hash, then range), by index.
    package var parentKeyAttributes: [Int] = []
    /// A child: the relationship to the parent, and the parent's entity.
    package var relationship = ""
    package var parentEntity = ""
    /// A child: the attribute given the element's 0-based index, by index.
    package var positionAttribute: Int?
    /// A child: whether re-loading a document deletes its parent's children it no longer holds.
    package var replace = true
    /// A child: what a document without the array's key means for its parent's stored children.
    package var missing = MissingArray.empty

    /// `source` with each node's map dropping the objects it reads only through paths and its
    /// entity does not take whole (`entities`, the shape's, root first): the reader then never
    /// makes their text (docs/documents.md#paths-and-values).
    package static func droppingPathRoots(of source: SourceConfig, entities: [Entity]) -> SourceConfig {
        var source = source
        var node = 0
        func drop(_ map: inout MapConfig) {
            map.drop.formUnion(RecordMapper.pathRootsDropped(by: map, on: entities[node]))
            node += 1
        }
        func drop(_ children: inout [ChildSource]) {
            for index in children.indices {
                drop(&children[index].map)
                drop(&children[index].children)
            }
        }
        drop(&source.map)
        drop(&source.children)
        return source
    }

    /// The child inputs of `source` (loading `entity`), depth first, each with the source
    /// settings its records are prepared with. Throws `ConfigurationError` for a child that
    /// does not fit the model or the destination.
    package static func children(of source: SourceConfig, entity: Entity, config: PipelineConfig, model: Model) throws
        -> [(source: SourceConfig, entity: Entity, role: DocumentInput)]
    {
        guard source.readsDocuments else { return [] }
        if source.modelVersion != nil, !source.children.isEmpty {
            throw ConfigurationError(
                file: config.file, line: source.line, key: "modelVersion",
                "a source with children is read with the run's model version; remove modelVersion, or migrate the dump's entities as flat sources"
            )
        }
        let shape = DocumentShape(source)
        var found: [(source: SourceConfig, entity: Entity, role: DocumentInput)] = []
        var node = 0
        func add(_ children: [ChildSource], parent: Entity) throws {
            for child in children {
                node += 1
                let entity = try childEntity(child, parent: parent, config: config, model: model)
                var role = DocumentInput(shape: shape, node: node)
                let relationship = try relationship(of: child, entity: entity, parent: parent, config: config)
                role.relationship = relationship.name
                role.parentEntity = parent.name
                role.parentKeyAttributes = relationship.keys.map { entity.attributeIndex[$0]! }
                role.replace = child.replace
                role.missing = child.missing
                if let position = child.position {
                    guard let index = entity.attributeIndex[position] else {
                        throw ConfigurationError(
                            file: config.file, line: child.line, key: "position",
                            "'\(position)' is not an attribute of \(entity.name); name the attribute that takes the element's index in its array"
                        )
                    }
                    role.positionAttribute = index
                }
                if config.destination.kind == .dynamodb, child.replace, entity.hashKey != relationship.keys.first {
                    throw ConfigurationError(
                        file: config.file, line: child.line, key: "replace",
                        "on DynamoDB a document's children are replaced by reading them with a Query on the child table's hash key, and \(entity.name)'s hash key (\(entity.hashKey)) is not its key of \(parent.name) (\(relationship.keys.joined(separator: ", "))); set 'replace: false' for this child, or key \(entity.name) by \(relationship.keys[0]) with a range key"
                    )
                }
                var childSource = source
                childSource.entity = entity.name
                childSource.map = child.map
                childSource.children = []
                childSource.line = child.line ?? source.line
                _ = try RecordMapper(entity: entity, map: child.map, file: config.file, line: childSource.line)
                try childSource.references.check(for: entity, file: config.file, sourceLine: childSource.line)
                found.append((childSource, entity, role))
                try add(child.children, parent: entity)
            }
        }
        try add(source.children, parent: entity)
        return found
    }

    private static func childEntity(_ child: ChildSource, parent: Entity, config: PipelineConfig, model: Model) throws
        -> Entity
    {
        guard let entity = model.entity(named: child.entity) else {
            throw ConfigurationError(
                file: config.file, line: child.line, key: "entity",
                "'\(child.entity)' (children: \(child.pathText)) is not an entity of model \(model.name) v\(model.version); use one of: \(model.entities.map(\.name).joined(separator: ", "))"
            )
        }
        return entity
    }

    /// The child entity's to-one relationship to its parent: the one `parent:` names, or its
    /// only one to the parent's entity.
    private static func relationship(of child: ChildSource, entity: Entity, parent: Entity, config: PipelineConfig)
        throws -> Relationship
    {
        let toParent = entity.toOneRelationships.filter { $0.destination == parent.name && $0.isToOne }
        if let name = child.parent {
            guard let relationship = entity.relationships.first(where: { $0.name == name }) else {
                throw ConfigurationError(
                    file: config.file, line: child.line, key: "parent",
                    "'\(name)' is not a relationship of \(entity.name); name its to-one relationship to \(parent.name)\(toParent.isEmpty ? "" : " (\(toParent.map(\.name).joined(separator: ", ")))")"
                )
            }
            guard relationship.isToOne, relationship.destination == parent.name else {
                throw ConfigurationError(
                    file: config.file, line: child.line, key: "parent",
                    "'\(name)' of \(entity.name) is not a to-one relationship to \(parent.name), which holds the array; name the relationship that holds \(parent.name)'s key"
                )
            }
            return relationship
        }
        guard toParent.count == 1 else {
            throw ConfigurationError(
                file: config.file, line: child.line, key: "parent",
                toParent.isEmpty
                    ? "\(entity.name) has no to-one relationship to \(parent.name), so its records cannot take their parent's key; add one to the model (with its key attribute)"
                    : "\(entity.name) has \(toParent.count) relationships to \(parent.name); say which one with 'parent: NAME'"
            )
        }
        return toParent[0]
    }
}
